import type { Executor } from '@/db/client';
import { applyEmailChange, createEmailChange, emailInUse, storeEmailChangeOutbox } from '@/db/queries/email-changes';
import { countResetRequest } from '@/db/queries/password-tokens';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { hashLinkSecret, newLinkSecret, parseLinkToken } from '@/lib/crypto/link-token';
import { sendSmtpEmail } from '@/lib/notifications/mailer';
import { verifyPassword } from './password';

export const EMAIL_CHANGE_WINDOW_MS = 60 * 60 * 1000;
/** Per user and window: room for a typo or two, too few to mail many addresses or guess the password. */
export const MAX_EMAIL_CHANGES_PER_WINDOW = 5;
export const EMAIL_CHANGES_LIMITED = 'Too many email change requests. Try again in an hour.';

export type EmailChangeRequest =
  | { ok: true; linkId: string }
  | { ok: false; field: 'email' | 'password'; message: string }
  | { ok: false; limited: true; message: string };

/**
 * Asks to change the user's email: the current password proves it is them; the link goes to the NEW address (SMTP,
 * else the Outbox), so the email changes only once that address is shown to be theirs. Each request counts against
 * the user's limit first, refused or not (a wrong password too): counted in one upsert, so parallel requests cannot
 * all pass it.
 */
export async function requestEmailChange(
  db: Executor,
  params: {
    user: { id: string; email: string };
    newEmail: string;
    password: string;
    workspaceId: string;
    origin: string;
    smtpUrl: string | null;
    now?: Date;
  },
): Promise<EmailChangeRequest> {
  // The "forgot password" windows (one row per key, one atomic upsert per request), under a key of their own.
  const requests = await countResetRequest(db, {
    key: `email-change:${params.user.id}`,
    windowMs: EMAIL_CHANGE_WINDOW_MS,
    now: params.now,
  });
  if (requests > MAX_EMAIL_CHANGES_PER_WINDOW) return { ok: false, limited: true, message: EMAIL_CHANGES_LIMITED };
  const newEmail = params.newEmail.trim().toLowerCase();
  if (newEmail === params.user.email) return { ok: false, field: 'email', message: 'That is already your email.' };
  const credentials = await getUserCredentialsByEmail(db, { email: params.user.email });
  if (!credentials?.passwordHash || !(await verifyPassword(params.password, credentials.passwordHash))) {
    return { ok: false, field: 'password', message: 'Wrong password.' };
  }
  if (await emailInUse(db, { email: newEmail })) {
    return { ok: false, field: 'email', message: 'Another account uses this email.' };
  }
  const { secret, secretHash } = newLinkSecret();
  const linkId = await createEmailChange(db, { userId: params.user.id, newEmail, secretHash });
  const message = {
    to: newEmail,
    subject: 'Confirm your new email for Semel',
    text: `Someone (hopefully you) asked to change the email of a Semel account to this address.\n\nConfirm it within 24 hours: ${params.origin}/email-change/${linkId}.${secret}\n\nIf it was not you, ignore this email: nothing changes.`,
  };
  if (params.smtpUrl) await sendSmtpEmail(params.smtpUrl, message);
  else
    await storeEmailChangeOutbox(db, {
      linkId,
      workspaceId: params.workspaceId,
      userId: params.user.id,
      toAddress: newEmail,
      subject: message.subject,
      body: message.text,
    });
  return { ok: true, linkId };
}

/**
 * Follows the link for the signed-in user: a malformed token is the same "invalid" as an expired or used one. The
 * change ends every other session of the user in the same statement (a session signed in with the old address, on a
 * device someone else holds, stops at its next request); `keepSessionId`, the confirming browser's own, stays.
 */
export async function confirmEmailChange(
  db: Executor,
  params: { token: string; userId: string; keepSessionId: string | null },
) {
  const parsed = parseLinkToken(params.token);
  if (!parsed) return { changed: false as const, reason: 'invalid' as const };
  return applyEmailChange(db, {
    id: parsed.id,
    userId: params.userId,
    secretHash: hashLinkSecret(parsed.secret),
    keepSessionId: params.keepSessionId,
  });
}
