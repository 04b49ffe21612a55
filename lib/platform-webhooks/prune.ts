import type { Executor } from '@/db/client';
import { deleteInBatches } from '@/db/queries/batches';
import { deletePlatformEventsBefore } from '@/db/queries/platform-events';

/** Unmatched and ignored platform events are kept this long (to be shown and looked into), then deleted. */
export const PLATFORM_EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Deletes unmatched and ignored platform events past their retention, in short batches. */
export async function pruneOldPlatformEvents(
  db: Executor,
  options: { now?: Date; batchSize?: number; maxBatches?: number } = {},
) {
  const before = new Date((options.now ?? new Date()).getTime() - PLATFORM_EVENT_RETENTION_MS);
  return deleteInBatches((batchSize) => deletePlatformEventsBefore(db, { before, batchSize }), options);
}
