import type { RefreshResult, ResolvedAccount } from '../definition';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import type { RawOutcome } from '../types';
import type { GraphClassifier } from './classifier';
import { createGraph } from './graph';
import type { MetaNetwork } from './network';

/**
 * Meta's long-lived user tokens (Threads: developers.facebook.com/docs/threads/get-started/long-lived-tokens;
 * Instagram: …/instagram-platform/reference/refresh_access_token): the code exchange gives a token for an hour,
 * `GET /access_token?grant_type=<exchange>` swaps it for a 60-day one, and `GET /refresh_access_token?grant_type=
 * <refresh>` renews that → `{ access_token, token_type, expires_in }`. A refused token (Graph 190) can only be
 * replaced by a reconnect; anything else is tried again later. The sandbox's client has no secret.
 */
export function longLivedTokens(network: MetaNetwork, classify: GraphClassifier) {
  const graph = (account: ResolvedAccount, send?: ProviderTransport) => createGraph(network, classify, account, send);

  const longLived = (account: ResolvedAccount, raw: RawOutcome) =>
    longLivedCredentials(network, classify, account, raw);

  return {
    refresh: async (account: ResolvedAccount, send?: ProviderTransport): Promise<RefreshResult> =>
      longLived(account, await graph(account, send).refresh({ timeoutMs: 10_000 })),
    exchange: async (input: {
      account: ResolvedAccount;
      clientSecret?: string;
      send?: ProviderTransport;
    }): Promise<RefreshResult> =>
      longLived(
        input.account,
        await graph(input.account, input.send).exchange(input.clientSecret ?? '', { timeoutMs: 10_000 }),
      ),
  };
}

/**
 * A long-lived token answer (`{ access_token, token_type, expires_in }`) as the account's new credentials; anything
 * else is a failed refresh, `rejected` when Graph refused the token itself (190).
 */
export function longLivedCredentials(
  network: MetaNetwork,
  classify: GraphClassifier,
  account: ResolvedAccount,
  raw: RawOutcome,
): RefreshResult {
  const body = raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : {};
  const accessToken = asString(body.access_token);
  const expiresIn = Number(body.expires_in);
  if (accessToken && Number.isFinite(expiresIn) && expiresIn > 0) {
    return {
      ok: true,
      credentials: {
        ...account.credentials,
        accessToken,
        expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString(),
      },
    };
  }
  const classification = classify(raw);
  return {
    ok: false,
    rejected: classification.rule === `${network.name}-token-rejected`,
    reason: `No long-lived ${network.label} token: ${classification.reason}`,
  };
}
