import { pruneOldWebhookEvents } from '@/lib/webhooks/prune';
import { defineJob } from './job';

/** Retention for outbound webhooks: settled events older than 30 days go, with their messages and log. */
export const pruneWebhooksJob = defineJob({
  name: 'prune-webhooks',
  run: async (db, options: { batchSize: number; maxBatches: number }) => ({
    prunedWebhookEvents: await pruneOldWebhookEvents(db, options),
  }),
  defaults: () => ({ batchSize: 1000, maxBatches: 100 }),
  cadence: { everyMs: 60 * 60 * 1000 },
});
