import type { Executor } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/db/queries/idempotency';

/** Deletes expired idempotency keys in batches (short statements, no long lock); returns how many. */
export async function pruneExpiredIdempotencyKeys(
  db: Executor,
  options: { batchSize?: number; maxBatches?: number } = {},
) {
  const batchSize = options.batchSize ?? 1000;
  let total = 0;
  for (let i = 0; i < (options.maxBatches ?? 100); i++) {
    const deleted = await deleteExpiredIdempotencyKeys(db, { batchSize });
    total += deleted;
    if (deleted < batchSize) break;
  }
  return total;
}
