import type { Sql } from 'postgres';
import type { Database } from '@/db/client';
import { logger } from '@/lib/logging/logger';
import { startScheduler, type SchedulerTask } from '@/lib/publishing/scheduler';
import type { JobDefinition } from './job';
import { jobs as registry } from './registry';
import { runJob } from './run';

export type BackgroundWork = {
  wake: () => void;
  /** Stops starting runs, then waits (up to `graceMs`) for the runs in flight so their outcomes are recorded. */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * Runs the registry's jobs in this process — the web server's in-process scheduler (lib/server/boot.ts) and
 * `npm run worker` alike: `'due'` jobs on the scheduler (lib/publishing/scheduler.ts), the others on their
 * interval. Several processes may run it at once against one database.
 */
export function startBackgroundJobs(db: Database, sql: Sql, jobs: readonly JobDefinition[] = registry): BackgroundWork {
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  const task = (job: JobDefinition): SchedulerTask => {
    const options = job.defaults(); // once per process: one worker id names this process's claims
    const run = (database: Database) => {
      // A pass in flight when a stop arrives finishes its current job; no new run starts after it.
      if (stopping) return Promise.resolve();
      const pass = runJob(database, job, options);
      inFlight.add(pass);
      void pass.catch(() => {}).finally(() => inFlight.delete(pass));
      return pass;
    };
    return { run, overlaps: job.overlaps === true };
  };

  const due = jobs.filter((job) => job.cadence === 'due').map(task);
  const scheduler = due.length > 0 ? startScheduler(db, sql, due) : null;
  const timers = jobs.flatMap((job) => {
    if (job.cadence === 'due') return [];
    const { run } = task(job);
    let running = false; // a run longer than the interval is not joined by a second one from this process
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void run(db)
        .catch((error) => logger.warn({ err: error, job: job.name }, 'background job failed; will retry'))
        .finally(() => (running = false));
    }, job.cadence.everyMs);
    timer.unref();
    return [timer];
  });

  return {
    wake: () => scheduler?.wake(),
    stop: async (graceMs = 30_000) => {
      stopping = true;
      for (const timer of timers) clearInterval(timer);
      await scheduler?.stop();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(timer);
    },
  };
}
