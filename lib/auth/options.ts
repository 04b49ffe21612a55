import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import GitHubProvider from 'next-auth/providers/github';
import { getDb } from '@/db/client';
import { createSession, deleteSession } from '@/db/queries/sessions';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { getMembershipsForUser } from '@/db/queries/workspaces';
import { getEnv } from '@/lib/env';
import { authenticate, type SignedInUser } from './credentials';
import { verifiedPrimaryGitHubEmail } from './github-email';
import { oidcProvider, verifiedOidcEmail } from './oidc';
import { authenticatePasskey } from './passkey-sign-in';
import { relyingParty } from './passkeys';
import { redirectAfterAuth } from './redirect';
import { currentPeer } from './peer-address';
import { requestAddress } from './request-address';
import { signInWithSsoInvitation, takeSsoInvitation } from './sso-invitation';
import { setWorkspaceCookie } from './workspace-cookie';

/** Only GitHub's verified primary email identifies a member, never the profile's (unverified) public one. */
const verifiedGitHubEmail = (account: { access_token?: string }) =>
  account.access_token ? verifiedPrimaryGitHubEmail(account.access_token) : Promise.resolve(null);

/** The verified email an OAuth sign-in (GitHub or OIDC) proves, which must already belong to a member. */
const verifiedEmail = (account: { provider: string; access_token?: string }, profile: unknown) =>
  account.provider === 'oidc' ? Promise.resolve(verifiedOidcEmail(profile)) : verifiedGitHubEmail(account);

export function getAuthOptions(): NextAuthOptions {
  const env = getEnv();
  const providers: NextAuthOptions['providers'] = [
    CredentialsProvider({
      name: 'Email and password',
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
        // A second factor, a code or a passkey's assertion (lib/auth/credentials.ts asks with TwoFactorRequired).
        code: { label: 'Authentication code', type: 'text' },
        passkey: { label: 'Passkey response', type: 'text' },
      },
      authorize: (credentials) => authenticate(getDb(), credentials, requestAddress()),
    }),
    // Passwordless: a WebAuthn assertion verified on the server (lib/auth/passkeys.ts); two-factor by itself.
    CredentialsProvider({
      id: 'passkey',
      name: 'Passkey',
      credentials: { response: { label: 'Passkey response', type: 'text' } },
      authorize: (credentials) => authenticatePasskey(getDb(), credentials, relyingParty()),
    }),
  ];
  // Optional: only when configured, and only for emails that already belong to a member (or, for OIDC, the email an
  // invitation is for: lib/auth/sso-invitation.ts).
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }
  if (env.oidc) providers.push(oidcProvider(env.oidc));

  return {
    secret: env.NEXTAUTH_SECRET,
    // The cookie may live as long as a session can; its row (lib/auth/session-user.ts) decides when it ends.
    session: { strategy: 'jwt', maxAge: env.SESSION_MAX_DAYS * 24 * 60 * 60 },
    // Refused sign-ins (single sign-on of a non-member) come back to the sign-in page with `?error=`.
    pages: { signIn: '/signin', error: '/signin' },
    providers,
    callbacks: {
      redirect: redirectAfterAuth,
      async signIn({ account, profile }) {
        if (account?.provider !== 'github' && account?.provider !== 'oidc') return true;
        const email = await verifiedEmail(account, profile);
        // An invitation page started this round trip (lib/auth/sso-invitation.ts): taken now, so it counts once.
        const invitation = account.provider === 'oidc' ? await takeSsoInvitation() : null;
        if (invitation) {
          if (!email) return `/invite/${encodeURIComponent(invitation)}?error=sso_unverified`;
          const name = (profile as { name?: unknown } | undefined)?.name;
          const outcome = await signInWithSsoInvitation(getDb(), {
            token: invitation,
            email,
            name: typeof name === 'string' ? name : '',
          });
          if (!outcome.allow) return outcome.redirect;
          if (outcome.workspaceSlug) await setWorkspaceCookie(outcome.workspaceSlug);
          return true;
        }
        return Boolean(email && (await getUserCredentialsByEmail(getDb(), { email })));
      },
      async jwt({ token, user, account, profile }) {
        if (user && account) {
          // Both Credentials providers (password, passkey) return the signed-in user; OAuth ones prove an email.
          const email = account.type === 'credentials' ? null : await verifiedEmail(account, profile);
          const found =
            account.type === 'credentials'
              ? (user as unknown as SignedInUser)
              : email
                ? await getUserCredentialsByEmail(getDb(), { email })
                : null;
          if (found) {
            const [first] = await getMembershipsForUser(getDb(), { userId: found.id });
            token.userId = found.id;
            token.workspaceId = first?.id ?? null;
            token.role = first?.role ?? null;
            token.sessionVersion = found.sessionVersion;
            token.sessionId = await createSession(getDb(), {
              userId: found.id,
              sessionVersion: found.sessionVersion,
              userAgent: currentPeer()?.userAgent ?? null,
              address: requestAddress(),
              maxDays: env.SESSION_MAX_DAYS,
            });
          }
        }
        return token;
      },
      session({ session, token }) {
        session.user = { ...session.user, id: token.userId as string };
        session.workspaceId = (token.workspaceId as string | null) ?? null;
        session.role = (token.role as string | null) ?? null;
        session.sessionVersion = (token.sessionVersion as number | undefined) ?? null;
        session.sessionId = (token.sessionId as string | undefined) ?? null;
        return session;
      },
    },
    events: {
      // Sign-out deletes the row: a copy of this cookie stops working at its next request.
      async signOut({ token }) {
        const sessionId = token?.sessionId as string | undefined;
        if (sessionId && token.userId) await deleteSession(getDb(), { sessionId, userId: token.userId as string });
      },
    },
  };
}
