import type { Database } from '@/db/client';
import { getAccountWithCredentials } from '@/db/queries/accounts';
import { problem } from '@/lib/http/problem';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { providerClientForAccount, ProviderReadError } from '@/lib/providers';
import type { PostOptionsInfo, ProviderName } from '@/lib/providers/types';

/** Short: the composer waits for it, and a slow network must not hold the form. */
const READ_TIMEOUT_MS = 5_000;

export type PostOptionsRead = { accountId: string; provider: ProviderName; info: PostOptionsInfo | null };

/**
 * What one account of the workspace allows as a post's options now (TikTok: creator_info), for the composer to offer
 * only that. Another workspace's account, or a disconnected one, is not found (I6); a network without options answers
 * `info: null`. A platform that cannot be read is a 502 naming why; the credentials never leave the server.
 */
export async function readPostOptionsInfo(
  db: Database,
  params: { workspaceId: string; accountId: string; encryptionKey: string },
): Promise<PostOptionsRead | Response | null> {
  if (!/^[0-9a-f-]{36}$/i.test(params.accountId)) return null;
  const account = await getAccountWithCredentials(db, params);
  if (!account || account.disconnectedAt) return null;
  const none = { accountId: account.id, provider: account.provider, info: null };
  if (!PROVIDER_META[account.provider].options) return none;
  const client = providerClientForAccount(account, { encryptionKey: params.encryptionKey });
  if (!client.postOptionsInfo) return none;
  try {
    return { ...none, info: await client.postOptionsInfo({ timeoutMs: READ_TIMEOUT_MS }) };
  } catch (error) {
    if (!(error instanceof ProviderReadError)) throw error;
    return problem({ status: 502, title: 'Bad Gateway', detail: error.message });
  }
}
