import type { RefreshResult, ResolvedAccount } from '../definition';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import type { RawOutcome } from '../types';
import { classifyThreads } from './classifier';
import { createGraph } from './graph';

/**
 * Long-lived tokens last 60 days and are renewed by
 * `GET /refresh_access_token?grant_type=th_refresh_token&access_token=…` → `{ access_token, token_type, expires_in }`
 * (developers.facebook.com/docs/threads/get-started/long-lived-tokens). A refused token (Graph 190) can only be
 * replaced by a reconnect; anything else is tried again later.
 */
export async function refreshThreadsToken(account: ResolvedAccount, send?: ProviderTransport): Promise<RefreshResult> {
  return longLivedToken(account, await createGraph(account, send).refresh({ timeoutMs: 10_000 }));
}

/**
 * The code exchange gives a token for one hour; `GET /access_token?grant_type=th_exchange_token` swaps it for a
 * 60-day one (developers.facebook.com/docs/threads/get-started/long-lived-tokens), which the refresh job renews.
 * The sandbox's client has no secret (its token endpoint takes none either).
 */
export async function exchangeThreadsToken(input: {
  account: ResolvedAccount;
  clientSecret?: string;
  send?: ProviderTransport;
}): Promise<RefreshResult> {
  const graph = createGraph(input.account, input.send);
  return longLivedToken(input.account, await graph.exchange(input.clientSecret ?? '', { timeoutMs: 10_000 }));
}

function longLivedToken(account: ResolvedAccount, raw: RawOutcome): RefreshResult {
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
  const classification = classifyThreads(raw);
  return {
    ok: false,
    rejected: classification.rule === 'threads-token-rejected',
    reason: `No long-lived Threads token: ${classification.reason}`,
  };
}
