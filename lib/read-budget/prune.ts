import type { Executor } from '@/db/client';
import { deleteInBatches } from '@/db/queries/batches';
import { deletePlatformReadsBefore } from '@/db/queries/read-budget';
import type { RateLimits } from '@/lib/publishing/config';

/** Reads are kept while any window can count them: the longest configured window, and never less than a day. */
export function readRetentionMs(rateLimits: RateLimits): number {
  const longest = Math.max(86_400, ...Object.values(rateLimits).map((l) => l?.windowSeconds ?? 0));
  return longest * 1000;
}

/** Deletes reads no window counts any more, in short batches. */
export async function pruneOldPlatformReads(
  db: Executor,
  options: { rateLimits: RateLimits; now?: Date; batchSize?: number; maxBatches?: number },
) {
  const before = new Date((options.now ?? new Date()).getTime() - readRetentionMs(options.rateLimits));
  return deleteInBatches((batchSize) => deletePlatformReadsBefore(db, { before, batchSize }), options);
}
