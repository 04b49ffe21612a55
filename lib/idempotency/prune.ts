import type { Executor } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';
import { deleteInBatches } from '@/db/queries/batches';

/** Deletes expired idempotency keys in batches (short statements, no long lock); returns how many. */
export async function pruneExpiredIdempotencyKeys(
  db: Executor,
  options: { batchSize?: number; maxBatches?: number } = {},
) {
  return deleteInBatches((batchSize) => deleteExpiredIdempotencyKeys(db, { batchSize }), options);
}
