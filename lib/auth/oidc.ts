import type { OAuthConfig } from 'next-auth/providers/oauth';

/** The ID token claims Semel reads (standard OpenID Connect claims). */
export type OidcProfile = { sub: string; email?: string; email_verified?: boolean; name?: string };

export type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

/**
 * A generic OpenID Connect provider (Google Workspace, Entra ID, Okta, Keycloak…): discovery from the issuer,
 * authorization code with PKCE and state, claims from the verified ID token. It signs in existing members
 * (options.ts), by an email the issuer says it verified, and accepts an invitation for that email
 * (lib/auth/sso-invitation.ts).
 */
export function oidcProvider(config: OidcConfig): OAuthConfig<OidcProfile> {
  return {
    id: 'oidc',
    name: config.name,
    type: 'oauth',
    wellKnown: `${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: 'openid email profile' } },
    idToken: true,
    checks: ['pkce', 'state'],
    profile: (profile) => ({
      id: profile.sub,
      name: profile.name ?? profile.email ?? profile.sub,
      email: profile.email,
    }),
  };
}

/** The email an OIDC sign-in proves: only when `email_verified` is true (an unverified one could be anybody's). */
export function verifiedOidcEmail(profile: unknown): string | null {
  const claims = profile as Partial<OidcProfile> | undefined;
  if (claims?.email_verified !== true || typeof claims.email !== 'string') return null;
  return claims.email.trim().toLowerCase() || null;
}
