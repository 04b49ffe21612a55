import type { Sql } from 'postgres';
import type { Database } from '@/db/client';
import { getNextDueAfterNow, getNextWakeAt } from '@/db/queries/publishing';
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
 * other lane, not after the whole pass (its maintenance, claim, calls and outcomes). And when a pass starts
 * with one lane free, a lane timer is set for the first delivery not yet due, so one that falls due during
 * the pass starts the other lane at its due time instead of waiting for the pass to end. The second lane
 * runs only the tasks that overlap (publishing); reconciliation and the rest keep one pass at a time.
 */
export function startScheduler(db: Database, sql: Sql, tasks: SchedulerTask[]) {
  let timer: NodeJS.Timeout | undefined;
  let staggerTimer: NodeJS.Timeout | undefined;
  let laneTimer: NodeJS.Timeout | undefined;
  let active = 0;
  let fullRunning = false; // a pass of every task is running (the other lane may run only the overlapping ones)
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
    // The lane by what is running, not by how many: under load one pass always overlaps the next, and a count would
    // leave the tasks that do not overlap (reconciliation) starved behind publish-only passes.
    const full = !fullRunning;
    const lane = full ? tasks : overlapping;
    if (active >= SCHEDULER_LANES || lane.length === 0) {
      again = true;
      return;
    }
    active++;
    if (full) fullRunning = true;
    if (busy && active < SCHEDULER_LANES) {
      clearTimeout(staggerTimer);
      staggerTimer = setTimeout(() => void tick(), STAGGER_MS);
      staggerTimer.unref();
    } else if (active < SCHEDULER_LANES && overlapping.length > 0) {
      void getNextDueAfterNow(db)
        .then((next) => {
          if (!next || stopped || active === 0) return;
          clearTimeout(laneTimer);
          laneTimer = setTimeout(
            () => void tick(),
            Math.min(Math.max(0, next.getTime() - Date.now()) + 1, MAX_SLEEP_MS),
          );
          laneTimer.unref();
        })
        .catch((error) => logger.warn({ err: error }, 'next due time unavailable; the pass end sets the timer'));
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
      clearTimeout(laneTimer); // the timer set at the end of the pass covers what it was waiting for
      active--;
      if (full) fullRunning = false;
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
      clearTimeout(laneTimer);
      const subscription = await listening;
      if (subscription) await subscription.unlisten();
    },
  };
}
