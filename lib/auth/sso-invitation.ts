import 'server-only';
import { cookies } from 'next/headers';
import type { Database } from '@/db/client';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { decryptSecret, encryptSecret, isLegacySealed } from '@/lib/crypto/secret-box';
import { getEnv } from '@/lib/env';
import { acceptInvitationWithSso } from '@/lib/teams/invitations';

export const SSO_INVITATION_COOKIE = 'semel-sso-invitation';
/** Long enough for the issuer's sign-in page (and its own second factor); a forgotten one does not linger. */
export const SSO_INVITATION_TTL_MS = 10 * 60 * 1000;
/** Sent only to the OIDC callback: no other route (GitHub's callback included) ever sees the invitation. */
const CALLBACK_PATH = '/api/auth/callback/oidc';
// The associated data: a value sealed for anything else under the same key does not open as an invitation.
const PURPOSE = 'semel-sso-invitation';

/** The invitation link's token and when it stops counting, sealed (AES-GCM): unreadable and unforgeable. */
export function sealSsoInvitation(token: string, keyBase64: string, now = new Date()): string {
  return encryptSecret(JSON.stringify({ token, exp: now.getTime() + SSO_INVITATION_TTL_MS }), keyBase64, PURPOSE);
}

/** The token a sealed value carries, or null when it is expired, altered, sealed for another purpose or garbage. */
export function openSsoInvitation(sealed: string, keyBase64: string, now = new Date()): string | null {
  // Legacy values were sealed without associated data: nothing of that age can be an invitation cookie.
  if (isLegacySealed(sealed)) return null;
  try {
    const { token, exp } = JSON.parse(decryptSecret(sealed, keyBase64, PURPOSE)) as { token?: unknown; exp?: unknown };
    return typeof token === 'string' && typeof exp === 'number' && exp > now.getTime() ? token : null;
  } catch {
    return null;
  }
}

/**
 * Set right before `signIn('oidc')` from an invitation page: the token travels through the issuer's round trip in an
 * httpOnly cookie of our own making, never in a query string the issuer or an attacker could write.
 */
export async function rememberSsoInvitation(token: string) {
  (await cookies()).set(SSO_INVITATION_COOKIE, sealSsoInvitation(token, getEnv().APP_ENCRYPTION_KEY), {
    httpOnly: true,
    sameSite: 'lax', // sent on the issuer's top-level redirect back to the callback
    path: CALLBACK_PATH,
    maxAge: SSO_INVITATION_TTL_MS / 1000,
    secure: process.env.NODE_ENV === 'production' && process.env.NEXTAUTH_URL?.startsWith('https'),
  });
}

/** In the OIDC callback: the invitation this browser started with, if any, and deletes it (it counts once). */
export async function takeSsoInvitation(): Promise<string | null> {
  const jar = await cookies();
  const sealed = jar.get(SSO_INVITATION_COOKIE)?.value;
  if (!sealed) return null;
  jar.delete({ name: SSO_INVITATION_COOKIE, path: CALLBACK_PATH });
  return openSsoInvitation(sealed, getEnv().APP_ENCRYPTION_KEY);
}

/** What the invitation page says after a refused single sign-on (`?error=`). */
export const SSO_INVITATION_ERRORS = {
  sso_email_mismatch:
    'Your single sign-on account has a different email from this invitation. Nothing changed: use the invited account, or accept another way.',
  sso_unverified: 'Your single sign-on account did not confirm a verified email. Nothing changed.',
} as const;
export type SsoInvitationError = keyof typeof SSO_INVITATION_ERRORS;

export type SsoInvitationSignIn = { allow: true; workspaceSlug: string | null } | { allow: false; redirect: string };

/**
 * An OIDC sign-in that carries an invitation, once the issuer proved `email`. The invited email → the same accept as
 * the invite page (a new user without a password, or the existing one; one membership; audited), signed in to that
 * workspace. Another email → refused, nothing written, the invitation stays open. An invitation no longer open → its
 * page says why; except a used one whose account exists (a second callback of the same accept): an ordinary sign-in.
 */
export async function signInWithSsoInvitation(
  db: Database,
  params: { token: string; email: string; name: string },
): Promise<SsoInvitationSignIn> {
  const result = await acceptInvitationWithSso(db, {
    token: params.token,
    email: params.email,
    name: profileName(params.name, params.email),
  });
  if (result.ok) return { allow: true, workspaceSlug: result.workspaceSlug };
  const page = `/invite/${encodeURIComponent(params.token)}`;
  if (result.reason === 'email_mismatch') return { allow: false, redirect: `${page}?error=sso_email_mismatch` };
  if (result.reason === 'used' && (await getUserCredentialsByEmail(db, { email: params.email })))
    return { allow: true, workspaceSlug: null };
  return { allow: false, redirect: page };
}

/** A new user's name from the profile: what the invite form would accept (no NUL, 1–80 characters), else the email. */
function profileName(name: string, email: string): string {
  const clean = name.replaceAll('\u0000', '').trim().slice(0, 80).trim();
  return clean || email.split('@')[0]!.slice(0, 80);
}
