import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from './transport';
import type { DeleteResult } from './types';

/**
 * One DELETE of the account's own post. Deleting is idempotent on every platform, and a post that is
 * already gone (404, or X's `deleted: false` for a missing tweet) counts as deleted.
 */
export async function deleteOnce(
  request: {
    url: string;
    headers: Record<string, string>;
    outbound?: OutboundPolicy;
    timeoutMs?: number;
    signal?: AbortSignal;
  },
  isDeleted: (body: unknown) => boolean,
  send: ProviderTransport = sendOnce,
): Promise<DeleteResult> {
  const raw = await send({ method: 'DELETE', ...request });
  if (raw.type !== 'response') return { ok: false, reason: `The platform did not answer the delete: ${raw.message}` };
  if (raw.status === 404) return { ok: true, alreadyGone: true };
  if (raw.status >= 200 && raw.status < 300)
    return isDeleted(raw.body) ? { ok: true, alreadyGone: false } : { ok: true, alreadyGone: true };
  return { ok: false, reason: `The platform refused the delete (${raw.status}).`, httpStatus: raw.status };
}
