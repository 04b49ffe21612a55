import { enqueueMonthlyClientReports } from '@/lib/reports/monthly';
import { defineJob } from './job';

/** The monthly client report: enqueued once per workspace and month; the notifications job emails it with its PDF. */
export const clientReportsJob = defineJob({
  name: 'client-reports',
  run: (db) => enqueueMonthlyClientReports(db),
  defaults: () => ({}),
  cadence: { everyMs: 60 * 60 * 1000 },
});
