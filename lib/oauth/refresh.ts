import type { OAuthConfig, ProviderDefinition } from '@/lib/providers/definition';
import { refreshEndpoint } from './endpoints';
import { requestTokens } from './token-request';

/**
 * A registry entry's `refresh` for networks with the standard refresh_token grant (RFC 6749 §6): one call,
 * the new access token, the rotated refresh token (or the old one when the server keeps it) and the new
 * expiry. The token job (lib/tokens/refresh-expiring.ts) calls it under the account's refresh claim.
 */
export function oauthRefresh(config: OAuthConfig): NonNullable<ProviderDefinition['refresh']> {
  const refresh: NonNullable<ProviderDefinition['refresh']> = async (account, send) => {
    const refreshToken = account.credentials.refreshToken;
    if (!refreshToken)
      return { ok: false, rejected: true, reason: 'There is no refresh token: only a reconnect helps.' };
    const endpoint = refreshEndpoint(config, account);
    if (!endpoint)
      return { ok: false, rejected: false, reason: `The OAuth client is not configured (${config.clientIdEnv}).` };
    const result = await requestTokens({
      tokenUrl: endpoint.tokenUrl,
      client: endpoint.client,
      clientParams: config.clientParams,
      outbound: endpoint.outbound,
      form: { grant_type: 'refresh_token', refresh_token: refreshToken },
      previousRefreshToken: refreshToken,
      send,
    });
    if (!result.ok) return { ok: false, rejected: result.rejected, reason: result.reason };
    // Whatever else was sealed (an identifier) is kept; the tokens and expiry are replaced.
    const { accessToken, refreshToken: next, expiresAt } = result.credentials;
    return { ok: true, credentials: { ...account.credentials, accessToken, refreshToken: next, expiresAt } };
  };
  refreshTokenGrants.add(refresh);
  return refresh;
}

const refreshTokenGrants = new WeakSet<object>();

/**
 * Whether a registry entry's `refresh` is the refresh_token grant: without a refresh token it cannot renew
 * anything (X without `offline.access`), so the token job waits for the expiry instead of calling it.
 * A network's own refresh (Threads renews a long-lived token with itself) decides for itself.
 */
export function needsRefreshToken(refresh: ProviderDefinition['refresh']): boolean {
  return refresh !== null && refreshTokenGrants.has(refresh);
}
