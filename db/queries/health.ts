import { sql } from 'drizzle-orm';
import type { Executor } from '../client';

/**
 * When each applied migration was generated (drizzle's own table: created_at is the journal's `when`),
 * or null when the table does not exist, i.e. nothing was ever migrated.
 */
export async function getAppliedMigrationTimes(db: Executor): Promise<number[] | null> {
  const [table] = [
    ...(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)),
  ] as { present: boolean }[];
  if (!table?.present) return null;
  const rows = [
    ...(await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at`)),
  ] as { created_at: string | number }[];
  return rows.map((r) => Number(r.created_at));
}
