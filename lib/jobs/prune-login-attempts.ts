import { pruneExpiredLoginAttempts } from '@/lib/auth/throttle';
import { defineJob } from './job';

/** Deletes sign-in attempts older than the throttle's window, in short batches. */
export const pruneLoginAttemptsJob = defineJob({
  name: 'prune-login-attempts',
  run: async (db, options: { batchSize: number; maxBatches: number }) => ({
    prunedLoginAttempts: await pruneExpiredLoginAttempts(db, options),
  }),
  defaults: () => ({ batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});
