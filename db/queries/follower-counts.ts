import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import type { ProviderName } from '../schema';
import { rows } from './deliveries/rows';
import { interval } from './sql-params';

// Follower counts (docs/analytics.md#the-metrics-job): each connected account is read once a UTC day; its row in
// account_metrics is the job's claim (generation, lease), each count a follower_snapshots row, once per day.

/** Gives every connected account a schedule row (due now), once. */
export async function addFollowerReads(db: Executor): Promise<number> {
  const result = await db.execute(sql`
    insert into account_metrics (account_id, workspace_id)
    select a.id, a.workspace_id from social_accounts a
    where a.disconnected_at is null and not exists (select 1 from account_metrics m where m.account_id = a.id)
    on conflict (account_id) do nothing
    returning account_id`);
  return [...result].length;
}

export type DueFollowerRead = {
  accountId: string;
  generation: number;
  workspaceId: string;
  provider: ProviderName;
  sandbox: boolean;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  readable: boolean;
};

/** Takes up to `limit` accounts whose daily count is due, one reader each. */
export async function claimDueFollowerReads(
  db: Executor,
  params: { workerId: string; limit: number; leaseMs: number },
): Promise<DueFollowerRead[]> {
  return rows<DueFollowerRead>(
    await db.execute(sql`
      with picked as (
        select m.account_id from account_metrics m
        where m.next_due_at <= now() and not m.unsupported
          and (m.lease_expires_at is null or m.lease_expires_at < now())
        order by m.next_due_at
        limit ${params.limit}
        for update of m skip locked
      ), bumped as (
        update account_metrics m set generation = m.generation + 1, worker_id = ${params.workerId},
          lease_expires_at = now() + ${interval(params.leaseMs)}
        from picked where m.account_id = picked.account_id
        returning m.account_id, m.generation
      )
      select b.account_id as "accountId", b.generation, a.workspace_id as "workspaceId", a.provider, a.sandbox,
        a.base_url as "baseUrl", a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted",
        (a.disconnected_at is null and a.token_status = 'ok') as readable
      from bumped b join social_accounts a on a.id = b.account_id`),
  );
}

/**
 * Records a day's count and the next read, fenced by the claim's generation; the day's row is written once
 * (`follower_snapshots_pk`: a second reader that day adds nothing). `followers` null: the network gives none to this
 * account (read no more).
 */
export async function recordFollowerRead(
  db: Executor,
  params: { accountId: string; generation: number; day: string; followers: number | null; nextDueAt: Date },
): Promise<boolean> {
  const result = await db.execute(sql`
    with held as (
      update account_metrics set lease_expires_at = null, next_due_at = ${params.nextDueAt.toISOString()}::timestamptz,
        unsupported = ${params.followers === null}
      where account_id = ${params.accountId} and generation = ${params.generation} and lease_expires_at is not null
      returning account_id, workspace_id
    ), stored as (
      insert into follower_snapshots (account_id, workspace_id, day, followers)
      select account_id, workspace_id, ${params.day}, ${params.followers}::bigint from held
      where ${params.followers}::bigint is not null
      on conflict (account_id, day) do nothing
      returning account_id
    )
    select (select count(*) from held)::int as held`);
  return Number(rows<{ held: number }>(result)[0]?.held) === 1;
}

/** Hands a follower read back for later (no budget left, unreadable), fenced by generation. */
export async function releaseFollowerRead(
  db: Executor,
  params: { accountId: string; generation: number; dueAt: Date },
): Promise<boolean> {
  const result = await db.execute(sql`
    update account_metrics set lease_expires_at = null, next_due_at = ${params.dueAt.toISOString()}::timestamptz
    where account_id = ${params.accountId} and generation = ${params.generation} and lease_expires_at is not null
    returning account_id`);
  return [...result].length === 1;
}
