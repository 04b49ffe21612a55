import type { RefreshResult, ResolvedAccount } from '../definition';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '../transport';
import { FACEBOOK_NETWORK } from '../meta-graph/network';
import { longLivedCredentials } from '../meta-graph/tokens';
import { classifyFacebook } from './classifier';

/**
 * Facebook Login's long-lived user token (developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived):
 * `GET /oauth/access_token?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token=<short token>` →
 * `{ access_token, token_type, expires_in }` (about 60 days). Page tokens read with it from /me/accounts do not expire,
 * so nothing is refreshed later: a refused page token (Graph 190) is a reconnect.
 */
export async function exchangeFacebookToken(input: {
  account: ResolvedAccount;
  clientId?: string;
  clientSecret?: string;
  send?: ProviderTransport;
}): Promise<RefreshResult> {
  const { account } = input;
  const query = new URLSearchParams({
    grant_type: FACEBOOK_NETWORK.exchangeGrant,
    client_id: input.clientId ?? '',
    fb_exchange_token: account.accessToken,
    ...(input.clientSecret ? { client_secret: input.clientSecret } : {}),
  });
  const raw = await (input.send ?? sendOnce)({
    method: 'GET',
    url: `${account.baseUrl.replace(/\/+$/, '')}/${FACEBOOK_NETWORK.version}/oauth/access_token?${query}`,
    outbound: account.outbound,
    timeoutMs: 10_000,
  });
  return longLivedCredentials(FACEBOOK_NETWORK, classifyFacebook, account, raw);
}
