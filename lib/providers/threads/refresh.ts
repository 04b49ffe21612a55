import type { RefreshResult, ResolvedAccount } from '../definition';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { classifyThreads } from './classifier';
import { createGraph } from './graph';

/**
 * Long-lived tokens last 60 days and are renewed by
 * `GET /refresh_access_token?grant_type=th_refresh_token&access_token=…` → `{ access_token, token_type, expires_in }`
 * (developers.facebook.com/docs/threads/get-started/long-lived-tokens). A refused token (Graph 190) can only be
 * replaced by a reconnect; anything else is tried again later.
 */
export async function refreshThreadsToken(account: ResolvedAccount, send?: ProviderTransport): Promise<RefreshResult> {
  const raw = await createGraph(account, send).refresh({ timeoutMs: 10_000 });
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
    reason: `The Threads token could not be renewed: ${classification.reason}`,
  };
}
