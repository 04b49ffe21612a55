import { getEnv } from '@/lib/env';
import { withDefaultRateLimits } from '@/lib/publishing/config';
import { pruneOldPlatformReads } from '@/lib/read-budget/prune';
import { defineJob } from './job';

/** Retention for the read budget's rows: those older than the longest rate-limit window go. */
export const prunePlatformReadsJob = defineJob({
  name: 'prune-platform-reads',
  run: async (db, options: Parameters<typeof pruneOldPlatformReads>[1]) => ({
    prunedPlatformReads: await pruneOldPlatformReads(db, options),
  }),
  defaults: () => ({ rateLimits: withDefaultRateLimits(getEnv().RATE_LIMITS), batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});
