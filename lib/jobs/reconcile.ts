import { reconcileOptionsFromEnv } from '@/lib/reconcile/options';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { defineJob } from './job';

/** Settles ambiguous deliveries by reading the platform (lib/reconcile/reconcile.ts); they fall due like posts do. */
export const reconcileJob = defineJob({
  name: 'reconcile',
  run: reconcileAmbiguousDeliveries,
  defaults: () => reconcileOptionsFromEnv(),
  cadence: 'due',
});
