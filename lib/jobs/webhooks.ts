import { deliverDueWebhooks } from '@/lib/webhooks/send';
import { defineJob } from './job';

/** Sends due webhook messages and their retries (lib/webhooks/send.ts); every 5 s, so a 5 s retry is on time. */
export const webhooksJob = defineJob({
  name: 'webhooks',
  run: (db, options: object) => deliverDueWebhooks(db, options),
  defaults: () => ({}),
  cadence: { everyMs: 5_000 },
});
