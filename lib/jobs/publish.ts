import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { publisherOptionsFromEnv } from '@/lib/publishing/worker';
import { defineJob } from './job';

/** Claims the deliveries that are due and publishes them (lib/publishing/publish-due.ts). */
export const publishJob = defineJob({
  name: 'publish',
  run: publishDueDeliveries,
  defaults: () => publisherOptionsFromEnv(),
  cadence: 'due',
  overlaps: true,
});
