// A real OpenID Connect provider (the `oidc-provider` package) for the single sign-on browser test only:
// playwright.sign-in-methods.config.ts starts it beside the app. Its dev login form takes any password; the login
// names one of the accounts below.
import Provider from 'oidc-provider';

const port = Number(process.env.OIDC_PORT);
const app = process.env.APP_URL;

/**
 * Logins of the test: a member, a verified stranger, and a member's email the issuer has not verified; and an invitee
 * with no account yet (e2e/sign-in-methods/oidc-invitation.spec.ts).
 */
const ACCOUNTS = {
  member: { email: 'admin@demo.test', email_verified: true, name: 'Ada Admin' },
  stranger: { email: 'stranger@example.test', email_verified: true, name: 'Stranger' },
  unverified: { email: 'viewer@demo.test', email_verified: false, name: 'Not Verified' },
  invitee: { email: 'sso-invitee@example.test', email_verified: true, name: 'Ivo Invitee' },
};

const provider = new Provider(`http://localhost:${port}`, {
  clients: [
    {
      client_id: 'semel-e2e',
      client_secret: 'semel-e2e-client-secret',
      redirect_uris: [`${app}/api/auth/callback/oidc`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // The ID token carries the scope's claims (Semel reads them from it, like most issuers send them).
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['e2e-oidc-provider-cookie-key'] },
  findAccount: (_ctx, id) =>
    ACCOUNTS[id] ? { accountId: id, claims: () => ({ sub: id, ...ACCOUNTS[id] }) } : undefined,
});

provider.listen(port, () => console.log(`test OIDC provider on http://localhost:${port}`));
