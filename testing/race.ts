import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/db/client';

/**
 * Holds a lock on a connection of its own until the returned release is called: a gate that stops one side
 * of a race at a known point while the other side runs on its own connection.
 */
export async function holdLock(db: Database, statement: SQL) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const locked = new Promise<void>((resolve) => (taken = resolve));
  const held = db.transaction(async (tx) => {
    await tx.execute(statement);
    taken();
    await released;
  });
  await Promise.race([locked, held]);
  return async () => {
    release();
    await held;
  };
}

/** Waits until `sessions` other sessions are blocked on a lock while running a statement that starts with `prefix`. */
export async function untilBlocked(db: Database, prefix: string, sessions = 1) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const [row] = [
      ...(await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`${prefix}%`}`)),
    ];
    if (row!.n >= sessions) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no session blocked on "${prefix}…" within 5 s`);
}

/** Whether a promise has settled yet (to show that one side was still in flight while the other ran). */
export function settled<T>(promise: Promise<T>) {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
}
