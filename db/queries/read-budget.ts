import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import { interval } from './sql-params';

// The read budget's statements (docs/architecture.md#read-budget). Reads (metrics, the inbox) spend the same
// per-account budget as publishing: the account's attempts and its reads in the window, counted together.

/** The lock that orders one account's reads (exported for the race test that holds it). */
export const accountReadLock = (accountId: string): SQL =>
  sql`select pg_advisory_xact_lock(hashtextextended(${`read-budget:${accountId}`}, 0))`;

export type TakenReadBudget = {
  /** The row's id when the read was recorded; null when it would have passed the cap (nothing written). */
  readId: number | null;
  /** Attempts and reads in the window before this one. */
  used: number;
  /** When the oldest use in the window leaves it (the earliest moment the budget grows); null when none is in it. */
  oldestEndsAt: Date | null;
};

/**
 * Records a read of `calls` platform calls when the account's attempts and reads in the window, plus these calls,
 * stay within `cap`; otherwise writes nothing. ONE statement under a per-account lock held to the end of the
 * transaction, taken before it, so its snapshot holds every read recorded before: parallel readers are counted one
 * after another and never pass the cap together (the sign-in limits' pattern, db/queries/login-attempts.ts).
 */
export async function takeReadBudgetRow(
  db: Executor,
  params: { workspaceId: string; accountId: string; purpose: string; calls: number; cap: number; windowMs: number },
): Promise<TakenReadBudget> {
  return db.transaction(async (tx) => {
    await tx.execute(accountReadLock(params.accountId));
    const [row] = await tx.execute<{ read_id: string | null; used: number; oldest: string | null }>(sql`
      with since as (select now() - ${interval(params.windowMs)} as t),
      used as (
        select
          (select count(*) from attempts a, since where a.account_id = ${params.accountId} and a.started_at > since.t)
          + (select coalesce(sum(r.calls), 0) from platform_reads r, since
              where r.account_id = ${params.accountId} and r.taken_at > since.t) as n,
          least(
            (select min(a.started_at) from attempts a, since where a.account_id = ${params.accountId} and a.started_at > since.t),
            (select min(r.taken_at) from platform_reads r, since where r.account_id = ${params.accountId} and r.taken_at > since.t)
          ) as oldest
      ),
      taken as (
        insert into platform_reads (workspace_id, account_id, purpose, calls)
        select ${params.workspaceId}, ${params.accountId}, ${params.purpose}, ${params.calls} from used
        where used.n + ${params.calls} <= ${params.cap}
        returning id
      )
      select (select id from taken) as read_id, used.n::int as used,
        used.oldest + ${interval(params.windowMs)} as oldest
      from used`);
    return {
      readId: row!.read_id === null ? null : Number(row!.read_id),
      used: Number(row!.used),
      oldestEndsAt: row!.oldest ? new Date(row!.oldest) : null,
    };
  });
}

/** Reads recorded for one account since then, per purpose (the Accounts page, tests). */
export async function countReadsByPurpose(db: Executor, params: { accountId: string; since: Date }) {
  const result = await db.execute<{ purpose: string; calls: number }>(sql`
    select purpose, sum(calls)::int as calls from platform_reads
    where account_id = ${params.accountId} and taken_at > ${params.since.toISOString()}::timestamptz
    group by purpose`);
  return new Map([...result].map((r) => [r.purpose, Number(r.calls)]));
}

/** Deletes reads older than `before` (past every window), `batchSize` at a time; how many went. */
export async function deletePlatformReadsBefore(db: Executor, params: { before: Date; batchSize: number }) {
  const result = await db.execute(sql`
    delete from platform_reads where id in (
      select id from platform_reads where taken_at < ${params.before.toISOString()}::timestamptz
      order by id limit ${params.batchSize})
    returning id`);
  return [...result].length;
}
