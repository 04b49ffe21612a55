import type { Sql } from 'postgres';
import type { Database } from '@/db/client';
import { getNextWakeAt } from '@/db/queries/publishing';
import { logger } from '@/lib/logging/logger';

export type SchedulerTask = (db: Database) => Promise<unknown>;

const MAX_SLEEP_MS = 30_000;

/**
 * The self-hosted trigger: runs `tasks` when a delivery falls due — woken by NOTIFY semel_due (new or
 * changed posts) and by a timer set to the next due time or lease expiry — so posts go out within a
 * second of their time. Correctness never depends on it: the tasks are the same atomic, fenced code
 * the cron route runs, and several instances may run it at once.
 */
export function startScheduler(db: Database, sql: Sql, tasks: SchedulerTask[]) {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const schedule = (at: Date | null) => {
    if (stopped) return;
    clearTimeout(timer);
    const delay = at ? Math.min(Math.max(0, at.getTime() - Date.now()) + 1, MAX_SLEEP_MS) : MAX_SLEEP_MS;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  };

  async function tick() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (const task of tasks) await task(db);
      } while (again && !stopped);
      schedule(await getNextWakeAt(db));
    } catch (error) {
      logger.error({ err: error }, 'scheduler pass failed; retrying shortly');
      schedule(new Date(Date.now() + 2_000));
    } finally {
      running = false;
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
      const subscription = await listening;
      if (subscription) await subscription.unlisten();
    },
  };
}
