import type { Sql } from 'postgres';
import type { Database } from '@/db/client';
import { getNextWakeAt } from '@/db/queries/publishing';
import { logger } from '@/lib/logging/logger';

/** One task of a pass. `overlaps`: the second lane runs it too (publishing: what falls due mid-pass); the others run in one lane. */
export type SchedulerTask = { run: (db: Database) => Promise<unknown>; overlaps?: boolean };

const MAX_SLEEP_MS = 30_000;
/** Passes at once while deliveries keep falling due, and how far apart they start (docs/publishing.md#lateness). */
export const SCHEDULER_LANES = 2;
const STAGGER_MS = 10;

/**
 * The self-hosted trigger: runs `tasks` when a delivery falls due — woken by NOTIFY semel_due (new or
 * changed posts) and by a timer set to the next due time or lease expiry — so posts go out within a
 * second of their time. Correctness never depends on it: the tasks are the same atomic, fenced code
 * the cron route runs, and several instances may run it at once.
 *
 * While deliveries keep falling due (the next is due by the time a pass ends), a second pass starts
 * STAGGER_MS after the first instead of after it ends: what falls due during a pass is claimed by the
 * other lane, not after the whole pass (its maintenance, claim, calls and outcomes). The second lane runs
 * only the tasks that overlap (publishing); reconciliation and the rest keep one pass at a time.
 */
export function startScheduler(db: Database, sql: Sql, tasks: SchedulerTask[]) {
  let timer: NodeJS.Timeout | undefined;
  let staggerTimer: NodeJS.Timeout | undefined;
  let active = 0;
  let again = false;
  let busy = false; // the last pass ended with the next delivery already due
  let stopped = false;

  const schedule = (at: Date | null) => {
    if (stopped) return;
    clearTimeout(timer);
    // A timer never fires early: 1 ms after the due time, the claim's now() is past it.
    const delay = at ? Math.min(Math.max(0, at.getTime() - Date.now()) + 1, MAX_SLEEP_MS) : MAX_SLEEP_MS;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  };

  const overlapping = tasks.filter((task) => task.overlaps);

  async function tick() {
    if (stopped) return;
    const lane = active === 0 ? tasks : overlapping;
    if (active >= SCHEDULER_LANES || lane.length === 0) {
      again = true;
      return;
    }
    active++;
    if (busy && active < SCHEDULER_LANES) {
      clearTimeout(staggerTimer);
      staggerTimer = setTimeout(() => void tick(), STAGGER_MS);
      staggerTimer.unref();
    }
    try {
      do {
        again = false;
        for (const task of lane) await task.run(db);
      } while (again && !stopped);
      const next = await getNextWakeAt(db);
      busy = next !== null && next.getTime() <= Date.now();
      schedule(next);
    } catch (error) {
      busy = false;
      logger.error({ err: error }, 'scheduler pass failed; retrying shortly');
      schedule(new Date(Date.now() + 2_000));
    } finally {
      active--;
    }
  }

  const listening = sql
    .listen('semel_due', () => void tick())
    .catch((error) => logger.warn({ err: error }, 'LISTEN failed; timer only'));
  void tick();
  return {
    wake: () => void tick(),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(staggerTimer);
      const subscription = await listening;
      if (subscription) await subscription.unlisten();
    },
  };
}
