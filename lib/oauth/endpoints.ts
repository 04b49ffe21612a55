import { getEnv, type Env } from '@/lib/env';
import { baseUrlRefusal, type OutboundPolicy } from '@/lib/net/outbound-guard';
import type { OAuthConfig, ProviderDefinition, ResolvedAccount } from '@/lib/providers/definition';
import { SANDBOX_OAUTH_CLIENT_ID } from '@/lib/providers/catalog';

/** Who this app is to a network's OAuth server. The secret never leaves the server (not logged, not rendered). */
export type OAuthClient = { clientId: string; clientSecret?: string };

/** Everything one OAuth connect needs, for the real network or for its sandbox. */
export type OAuthEndpoints = {
  client: OAuthClient;
  /** Where the admin's browser goes to consent (absolute). */
  authorizeUrl: string;
  /** Where the server exchanges and refreshes (absolute), and how that call is guarded. */
  tokenUrl: string;
  tokenOutbound: OutboundPolicy;
  scopes: readonly string[];
  /** The base URL stored on the accounts it connects (relative for the sandbox, as one-click sandbox accounts). */
  accountBaseUrl: string;
  sandbox: boolean;
};

export type EndpointsProblem = 'no_oauth' | 'not_configured' | 'sandbox_off';

/** The network's client from the environment, or null when its variables are blank (its real OAuth is off). */
export function oauthClientOf(config: OAuthConfig, env: Env = getEnv()): OAuthClient | null {
  const read = (name: string) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const clientId = read(config.clientIdEnv);
  return clientId ? { clientId, clientSecret: read(config.clientSecretEnv) } : null;
}

/**
 * The endpoints of one connect: the network's own (its client from the environment, calls through the
 * outbound guard), or its sandbox dialect's (`<sandboxPath>/oauth/…`; the browser on `browserOrigin`, the server
 * calling this app's own origin, trusted as sandbox accounts are).
 */
export function oauthEndpoints(
  definition: Pick<ProviderDefinition, 'oauth' | 'sandboxPath'>,
  options: { sandbox: boolean; browserOrigin: string; serverOrigin: string; env?: Env },
): OAuthEndpoints | { problem: EndpointsProblem } {
  const env = options.env ?? getEnv();
  const config = definition.oauth;
  if (!config) return { problem: 'no_oauth' };
  if (options.sandbox) {
    if (!env.sandboxEnabled) return { problem: 'sandbox_off' };
    return {
      client: { clientId: SANDBOX_OAUTH_CLIENT_ID },
      authorizeUrl: `${options.browserOrigin}${definition.sandboxPath}/oauth/authorize`,
      tokenUrl: `${options.serverOrigin}${definition.sandboxPath}/oauth/token`,
      tokenOutbound: { trustedOrigin: options.serverOrigin },
      scopes: config.scopes,
      accountBaseUrl: definition.sandboxPath,
      sandbox: true,
    };
  }
  const client = oauthClientOf(config, env);
  if (!client) return { problem: 'not_configured' };
  const tokenUrl = absolute(config.tokenUrl, config.apiBaseUrl);
  return {
    client,
    authorizeUrl: absolute(config.authorizeUrl, config.apiBaseUrl),
    tokenUrl,
    tokenOutbound: { baseUrlProblem: baseUrlRefusal(tokenUrl) ?? undefined },
    scopes: config.scopes,
    accountBaseUrl: config.apiBaseUrl,
    sandbox: false,
  };
}

/**
 * Where a stored account refreshes: a sandbox account at its dialect's token endpoint (its base URL is the
 * resolved sandbox path, its outbound policy the trusted origin), any other at the network's own.
 */
export function refreshEndpoint(
  config: OAuthConfig,
  account: ResolvedAccount,
  env?: Env,
): { tokenUrl: string; client: OAuthClient; outbound?: OutboundPolicy } | null {
  if (account.sandbox)
    return {
      tokenUrl: `${account.baseUrl}/oauth/token`,
      client: { clientId: SANDBOX_OAUTH_CLIENT_ID },
      outbound: account.outbound,
    };
  const client = oauthClientOf(config, env);
  if (!client) return null;
  const tokenUrl = absolute(config.tokenUrl, config.apiBaseUrl);
  return { tokenUrl, client, outbound: { baseUrlProblem: baseUrlRefusal(tokenUrl) ?? undefined } };
}

function absolute(url: string, base: string): string {
  return /^https?:\/\//i.test(url) ? url : `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}
