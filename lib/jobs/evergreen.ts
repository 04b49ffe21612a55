import { EVERGREEN_DEFAULTS, runEvergreenQueues } from '@/lib/evergreen/run';
import { defineJob } from './job';

/** Evergreen queues: each due queue's next item into its accounts' next free posting slot (lib/evergreen/run.ts). */
export const evergreenJob = defineJob({
  name: 'evergreen',
  run: (db, options: typeof EVERGREEN_DEFAULTS) => runEvergreenQueues(db, options),
  defaults: () => EVERGREEN_DEFAULTS,
  cadence: { everyMs: 30_000 },
});
