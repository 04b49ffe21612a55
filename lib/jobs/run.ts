import type { Database } from '@/db/client';
import { trackJob } from '@/lib/metrics/record';
import type { JobDefinition } from './job';

/**
 * Runs one pass of a job. Every caller (scheduler, worker, cron route) goes through here, so every run and
 * every failure is counted (semel_job_runs_total / semel_job_failures_total) without a call site remembering it.
 */
export function runJob<Options, Summary>(
  db: Database,
  job: JobDefinition<string, Options, Summary>,
  options?: Options,
): Promise<Summary> {
  return trackJob(job.name, async () => job.run(db, options ?? job.defaults()));
}
