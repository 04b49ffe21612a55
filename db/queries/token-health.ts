import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { ProviderName } from '@/db/schema';
import type { Executor } from '../client';
import { deliveries, socialAccounts } from '../schema';
import { publicAccountColumns } from './accounts';
import { interval } from './sql-params';

// Token health of social accounts (docs/architecture.md#delivery-states): refresh claims, incidents and the
// deliveries held meanwhile. Each guard is one statement: a lease claimed with SKIP LOCKED, writes fenced by it
// and by the sealed credentials read, one notification per incident by a unique key.

const rows = <T>(result: Iterable<unknown>) => [...result] as T[];

/**
 * An account whose deliveries may be published now (expects alias `a` for social_accounts): connected, token
 * healthy and not past its expiry. Anything else holds its due deliveries: not claimed, not failed, not lost.
 */
export const accountCanPublish = sql`(a.disconnected_at is null and a.token_status = 'ok'
  and (a.token_expires_at is null or a.token_expires_at > now()))`;

export type ExpiringAccount = {
  id: string;
  workspaceId: string;
  provider: ProviderName;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  tokenExpiresAt: string;
  tokenStatus: 'ok' | 'expired' | 'rejected';
  /** The claim's lease, the fencing token of every write that follows (milliseconds, so it survives a round trip). */
  lease: string;
};

/**
 * Claims up to `limit` accounts whose token expires within `marginMs` (or has expired), one refresher per
 * account: the lease is taken where it is free or lapsed, rows locked by another claimer are skipped.
 */
export async function claimExpiringTokens(db: Executor, params: { marginMs: number; leaseMs: number; limit: number }) {
  const result = await db.execute(sql`
    with due as (
      select id from social_accounts
      where disconnected_at is null and token_status <> 'rejected' and token_expires_at is not null
        and token_expires_at <= now() + ${interval(params.marginMs)}
        and (token_refresh_lease_until is null or token_refresh_lease_until < now())
      order by token_expires_at
      limit ${params.limit}
      for update skip locked
    )
    update social_accounts a set token_refresh_lease_until = date_trunc('milliseconds', now() + ${interval(params.leaseMs)})
    from due where a.id = due.id
    returning a.id, a.workspace_id as "workspaceId", a.provider, a.base_url as "baseUrl",
      a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted",
      a.token_expires_at as "tokenExpiresAt", a.token_status as "tokenStatus",
      to_char(a.token_refresh_lease_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as lease`);
  return rows<ExpiringAccount>(result);
}

/**
 * Stores refreshed credentials under the claim: only while this refresher still holds the lease and the sealed
 * credentials are the ones it refreshed (a reconnect meanwhile wins). Health back to `ok`, lease released.
 */
export async function storeRefreshedCredentials(
  db: Executor,
  params: {
    accountId: string;
    lease: string;
    previous: string;
    credentialsEncrypted: string;
    tokenLast4: string;
    expiresAt: Date | null;
  },
) {
  const result = await db.execute(sql`
    update social_accounts set credentials_encrypted = ${params.credentialsEncrypted}, token_last4 = ${params.tokenLast4},
      token_expires_at = ${params.expiresAt?.toISOString() ?? null}::timestamptz, token_status = 'ok', token_problem = null,
      token_refresh_lease_until = null
    where id = ${params.accountId} and token_refresh_lease_until = ${params.lease}::timestamptz
      and credentials_encrypted = ${params.previous}
    returning id`);
  return rows(result).length === 1;
}

/** Ends the claim: the lease is set to `until` (null: free now; a time: not before then), if still ours. */
export async function releaseTokenRefresh(
  db: Executor,
  params: { accountId: string; lease: string; until: Date | null },
) {
  await db.execute(sql`
    update social_accounts set token_refresh_lease_until = ${params.until?.toISOString() ?? null}::timestamptz
    where id = ${params.accountId} and token_refresh_lease_until = ${params.lease}::timestamptz`);
}

/**
 * Records a token incident: the account's health becomes `status` with the reason, and the workspace is notified
 * once per incident (`notifications_account_incident_uq`: the incident is the sealed credentials that went bad,
 * as every way back to `ok` reseals them). With `credentials`, only if they are still the stored ones.
 * Returns whether this call changed the account's health.
 */
export async function markTokenProblem(
  db: Executor,
  params: {
    accountId: string;
    status: 'expired' | 'rejected';
    problem: string;
    networkLabel: string;
    credentialsEncrypted?: string;
  },
) {
  const result = await db.execute(sql`
    with marked as (
      update social_accounts a set token_status = ${params.status}, token_problem = ${params.problem}
      where a.id = ${params.accountId} and a.disconnected_at is null and a.token_status <> ${params.status}
        ${params.credentialsEncrypted === undefined ? sql`` : sql`and a.credentials_encrypted = ${params.credentialsEncrypted}`}
      returning a.id, a.workspace_id, a.handle, a.credentials_encrypted
    ), held as (
      select count(*)::int as n from deliveries d join marked m on d.account_id = m.id where d.status = 'scheduled'
    ), notified as (
      insert into notifications (workspace_id, account_id, incident_key, kind, message)
      select m.workspace_id, m.id, md5(m.credentials_encrypted), 'reconnect',
        m.handle || ' on ' || ${params.networkLabel} || ' needs a reconnect: ' || ${params.problem}
          || case when h.n = 0 then '' else ' ' || h.n || ' scheduled post' || case when h.n = 1 then ' is' else 's are' end
          || ' held until then.' end
      from marked m cross join held h
      on conflict (account_id, kind, incident_key) do nothing
      returning id
    )
    select (select count(*)::int from marked) as marked, (select count(*)::int from notified) as notified`);
  const row = rows<{ marked: number; notified: number }>(result)[0]!;
  return { marked: row.marked === 1, notified: row.notified === 1 };
}

/** The accounts page's list: public columns, token health and how many scheduled posts each one holds. */
export async function listAccountsWithHealth(db: Executor, params: { workspaceId: string }) {
  return db
    .select({
      ...publicAccountColumns,
      tokenStatus: socialAccounts.tokenStatus,
      tokenProblem: socialAccounts.tokenProblem,
      tokenExpiresAt: socialAccounts.tokenExpiresAt,
      scheduled: count(deliveries.id),
    })
    .from(socialAccounts)
    .leftJoin(deliveries, and(eq(deliveries.accountId, socialAccounts.id), eq(deliveries.status, 'scheduled')))
    .where(eq(socialAccounts.workspaceId, params.workspaceId))
    .groupBy(socialAccounts.id)
    .orderBy(asc(socialAccounts.handle));
}
