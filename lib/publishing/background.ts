import type { Sql } from 'postgres';
import type { Database } from '@/db/client';
import { pruneExpiredIdempotencyKeys } from '@/lib/idempotency/prune';
import { logger } from '@/lib/logging/logger';
import { reconcileOptionsFromEnv } from '@/lib/reconcile/options';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { publishDueDeliveries } from './publish-due';
import { startScheduler, type SchedulerTask } from './scheduler';
import { publisherOptionsFromEnv } from './worker';

const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;

/**
 * The background work of a self-hosted process, one list for the web server's in-process scheduler
 * (db/boot.ts) and `npm run worker` (scripts/worker.mts): publish what is due, settle what is ambiguous.
 */
export function backgroundTasks(): SchedulerTask[] {
  const publishing = publisherOptionsFromEnv();
  const reconciling = reconcileOptionsFromEnv();
  return [(db) => publishDueDeliveries(db, publishing), (db) => reconcileAmbiguousDeliveries(db, reconciling)];
}

/** Hourly maintenance (cron hosts call /api/cron/maintenance instead): prune expired idempotency keys. */
export const housekeepingTasks: SchedulerTask[] = [(db) => pruneExpiredIdempotencyKeys(db)];

export type BackgroundWork = {
  wake: () => void;
  /** Stops starting passes, then waits (up to `graceMs`) for the pass in flight so its outcomes are recorded. */
  stop: (graceMs?: number) => Promise<void>;
};

/** Starts the scheduler over `backgroundTasks()` and the hourly housekeeping; several processes may run it at once. */
export function startBackgroundWork(db: Database, sql: Sql): BackgroundWork {
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  // A pass in flight when a stop arrives finishes its current task; no new task starts after it.
  const track = (task: SchedulerTask): SchedulerTask => (database) => {
    if (stopping) return Promise.resolve();
    const run = task(database);
    inFlight.add(run);
    void run.catch(() => {}).finally(() => inFlight.delete(run));
    return run;
  };
  const scheduler = startScheduler(db, sql, backgroundTasks().map(track));
  const housekeeping = setInterval(() => {
    for (const task of housekeepingTasks) {
      void track(task)(db).catch((error) => logger.warn({ err: error }, 'housekeeping failed; will retry'));
    }
  }, HOUSEKEEPING_EVERY_MS);
  housekeeping.unref();

  return {
    wake: scheduler.wake,
    stop: async (graceMs = 30_000) => {
      stopping = true;
      clearInterval(housekeeping);
      await scheduler.stop();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(timer);
    },
  };
}
