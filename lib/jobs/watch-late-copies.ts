import { watchOptionsFromEnv } from '@/lib/reconcile/options';
import { watchForLateCopies } from '@/lib/reconcile/watch';
import { defineJob } from './job';

/** Reads republished deliveries again for a late copy (lib/reconcile/watch.ts); its steps are minutes apart. */
export const watchLateCopiesJob = defineJob({
  name: 'watch-late-copies',
  run: watchForLateCopies,
  defaults: () => watchOptionsFromEnv(),
  cadence: { everyMs: 10_000 },
});
