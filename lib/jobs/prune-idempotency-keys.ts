import { pruneExpiredIdempotencyKeys } from '@/lib/idempotency/prune';
import { defineJob } from './job';

/** Deletes expired idempotency keys in short batches, so no statement holds a long lock. */
export const pruneIdempotencyKeysJob = defineJob({
  name: 'prune-idempotency-keys',
  run: async (db, options: { batchSize: number; maxBatches: number }) => ({
    prunedIdempotencyKeys: await pruneExpiredIdempotencyKeys(db, options),
  }),
  defaults: () => ({ batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});
