import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { rows } from './deliveries/rows';
import { interval, uuidList } from './sql-params';

// The claim the content jobs share (docs/architecture.md#background-jobs): evergreen queues and feeds. Each table has
// `paused`, `next_run_at`, `lease_expires_at` and `generation`; the claim is one statement, as for the outboxes.

export type LeasedTable = 'evergreen_queues' | 'feeds';

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Due (or the named) unpaused rows under no live lease, SKIP LOCKED so concurrent runners split them; each claim bumps
 * the generation, which fences the runner's later writes, and sets a lease. Returns the claimed rows as stored.
 */
export async function claimLeasedRows(
  db: Executor,
  table: LeasedTable,
  params: { now: Date; limit: number; leaseMs: number; ids?: string[] },
): Promise<Record<string, unknown>[]> {
  const which = params.ids ? sql`and r.id in ${uuidList(params.ids)}` : sql`and r.next_run_at <= ${at(params.now)}`;
  const result = await db.execute(sql`
    with due as (
      select r.id from ${sql.identifier(table)} r
      where not r.paused ${which}
        and (r.lease_expires_at is null or r.lease_expires_at <= ${at(params.now)})
      order by r.next_run_at
      limit ${params.limit}
      for update skip locked
    )
    update ${sql.identifier(table)} t set generation = t.generation + 1,
      lease_expires_at = ${at(params.now)} + ${interval(params.leaseMs)}
    from due where t.id = due.id
    returning t.*`);
  return rows<Record<string, unknown>>(result);
}
