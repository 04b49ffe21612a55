import type { Database } from '@/db/client';

/**
 * When a job runs on its own: `'due'` passes run whenever the scheduler wakes for work falling due (NOTIFY,
 * the next due time, a lease expiring); `{ everyMs }` runs on a fixed interval. Cron hosts call it instead.
 */
export type JobCadence = 'due' | { everyMs: number };

/**
 * One background job. The in-process scheduler, `npm run worker` and `POST /api/cron/<name>` all run it
 * through `runJob` (lib/jobs/run.ts), which counts its runs and failures.
 */
export type JobDefinition<Name extends string = string, Options = unknown, Summary = unknown> = {
  /** Its cron URL (`/api/cron/<name>`) and metrics label; unique in the registry. */
  name: Name;
  /** One pass. Any number of processes may run it at once: its guards are atomic statements. Returns a JSON summary. */
  run(db: Database, options: Options): Promise<Summary>;
  /** Options from the validated environment, read when a process starts running the job. */
  defaults(): Options;
  cadence: JobCadence;
  /** A `'due'` job the scheduler's second lane runs too while work keeps falling due (lib/publishing/scheduler.ts): publishing only. */
  overlaps?: boolean;
};

/** Declares a job; a missing or mistyped field is a compile error here, not a surprise in production. */
export function defineJob<const Name extends string, Options, Summary>(
  job: JobDefinition<Name, Options, Summary>,
): JobDefinition<Name, Options, Summary> {
  return job;
}
