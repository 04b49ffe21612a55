import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import { rows } from './deliveries/rows';
import { interval, uuidList } from './sql-params';

// The statements every leased outbox shares (lib/jobs/leased-outbox.ts): webhook messages and notification sends.
// Each table has `status` ('pending' while there is work), `next_attempt_at`, `lease_expires_at` and `generation`.

export type OutboxTable = 'webhook_messages' | 'notification_sends';

export type OutboxClaim = { now: Date; limit: number; leaseMs: number; ids?: string[] };

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The one claim statement: pending rows due at `now` and under no live lease, SKIP LOCKED so concurrent senders
 * split them; each claim bumps the generation (the fence a stale sender's writes fail on) and sets a lease.
 * `where` adds the outbox's own condition on the candidate row `o`; `set` more columns to write on the claimed
 * row `t`; `select` reads the claimed rows (the CTE `claimed`) with what the send needs.
 */
export function claimDueSql(
  table: OutboxTable,
  params: OutboxClaim,
  parts: { where?: SQL; set?: SQL; select: SQL },
): SQL {
  const only = params.ids ? sql`and o.id in ${uuidList(params.ids)}` : sql``;
  return sql`
    with due as (
      select o.id from ${sql.identifier(table)} o
      where o.status = 'pending' and o.next_attempt_at <= ${at(params.now)}
        and (o.lease_expires_at is null or o.lease_expires_at <= ${at(params.now)}) ${only} ${parts.where ?? sql``}
      order by o.next_attempt_at
      limit ${params.limit}
      for update skip locked
    ), claimed as (
      update ${sql.identifier(table)} t
      set generation = t.generation + 1, lease_expires_at = ${at(params.now)} + ${interval(params.leaseMs)}
          ${parts.set ?? sql``}
      from due where t.id = due.id
      returning t.*
    )
    ${parts.select}`;
}

/** Whether this claim still holds its row: checked right before the external call, so a lapsed lease sends nothing. */
export async function outboxLeaseHeld(
  db: Executor,
  params: { table: OutboxTable; id: string; generation: number; now: Date },
): Promise<boolean> {
  const held = rows<{ id: string }>(
    await db.execute(sql`
      select id from ${sql.identifier(params.table)}
      where id = ${params.id} and generation = ${params.generation} and status = 'pending'
        and lease_expires_at > ${at(params.now)}`),
  );
  return held.length > 0;
}
