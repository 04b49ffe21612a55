import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { executePrepared } from './prepared';
import { uuidAny } from './sql-params';
import { partReady } from './deliveries/thread';
import { accountCanPublish } from './token-health';

// Reads and wake-ups for the publisher; every statement that moves a delivery lives in ./deliveries/ (docs/architecture.md#write-order).

const rows = <T>(result: Iterable<unknown>) => [...result] as T[];

/** When the scheduler should wake next: the earliest publishable due delivery or reconciliation check, or expiring lease. */
export async function getNextWakeAt(db: Executor): Promise<Date | null> {
  // One subquery per status, so the scheduled one walks the partial due index (past held deliveries).
  const result = await executePrepared(
    db,
    sql`
    select least(
      -- Deliveries held for an account's token wait for a reconnect (which notifies), not for a time.
      -- Thread parts waiting for the part before them wake nobody: sending that part is what makes them due.
      (select d.due_at from deliveries d where d.status = 'scheduled'
        and exists (select 1 from social_accounts a where a.id = d.account_id and ${accountCanPublish}) and ${partReady}
        order by d.due_at limit 1),
      (select min(due_at) from deliveries where status = 'ambiguous'),
      (select min(lease_expires_at) from claims where released_at is null)
    ) as at`,
  );
  const at = rows<{ at: string | Date | null }>(result)[0]?.at;
  return at ? new Date(at) : null;
}

/**
 * The due time of the first publishable delivery not yet due: while a pass claims what is due now, the scheduler's
 * second lane wakes for this one (lib/publishing/scheduler.ts).
 */
export async function getNextDueAfterNow(db: Executor): Promise<Date | null> {
  const result = await executePrepared(
    db,
    sql`
    select d.due_at as at from deliveries d where d.status = 'scheduled' and d.due_at > now()
      and exists (select 1 from social_accounts a where a.id = d.account_id and ${accountCanPublish}) and ${partReady}
    order by d.due_at limit 1`,
  );
  const at = rows<{ at: string | Date | null }>(result)[0]?.at;
  return at ? new Date(at) : null;
}

/**
 * Attempts started per account since `since`, plus the platform calls its reads spent (the per-account rate limit:
 * one budget for publishing and reading, docs/architecture.md#read-budget). Reads only ever take what the reserved
 * share leaves, so publishing keeps that share whatever they spent.
 */
export async function countRecentAttemptsByAccount(db: Executor, params: { accountIds: string[]; since: Date }) {
  if (params.accountIds.length === 0) return new Map<string, number>();
  const result = await executePrepared(
    db,
    sql`
    select u.account_id as "accountId", sum(u.n)::int as n from (
      select a.account_id, count(*) as n from attempts a
      where a.account_id = ${uuidAny(params.accountIds)} and a.started_at > ${params.since.toISOString()}::timestamptz
      group by a.account_id
      union all
      select r.account_id, sum(r.calls) as n from platform_reads r
      where r.account_id = ${uuidAny(params.accountIds)} and r.taken_at > ${params.since.toISOString()}::timestamptz
      group by r.account_id
    ) u
    group by u.account_id`,
  );
  return new Map(rows<{ accountId: string; n: number }>(result).map((r) => [r.accountId, r.n]));
}

/** Wakes every scheduler listening (delivered on commit when called inside a transaction). */
export async function notifyDue(db: Executor) {
  await db.execute(sql`select pg_notify('semel_due', '')`);
}
