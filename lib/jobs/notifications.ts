import { deliverDueNotifications } from '@/lib/notifications/send';
import { defineJob } from './job';

/** Sends due notification emails and Slack messages, their retries and yesterday's digests (lib/notifications/send.ts). */
export const notificationsJob = defineJob({
  name: 'notifications',
  run: (db, options: object) => deliverDueNotifications(db, options),
  defaults: () => ({}),
  cadence: { everyMs: 5_000 },
});
