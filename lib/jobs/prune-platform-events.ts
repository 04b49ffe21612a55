import { pruneOldPlatformEvents } from '@/lib/platform-webhooks/prune';
import { defineJob } from './job';

/** Retention for platform webhooks in: unmatched and ignored events older than 30 days go. */
export const prunePlatformEventsJob = defineJob({
  name: 'prune-platform-events',
  run: async (db, options: { batchSize: number; maxBatches: number }) => ({
    prunedPlatformEvents: await pruneOldPlatformEvents(db, options),
  }),
  defaults: () => ({ batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});
