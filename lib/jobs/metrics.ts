import { metricsOptionsFromEnv } from '@/lib/analytics/options';
import { readDueMetrics } from '@/lib/analytics/read-metrics';
import { defineJob } from './job';

/** Reads sent posts' public metrics at their due times and each account's daily follower count (lib/analytics/). */
export const metricsJob = defineJob({
  name: 'metrics',
  run: readDueMetrics,
  defaults: () => metricsOptionsFromEnv(),
  cadence: { everyMs: 60_000 },
});
