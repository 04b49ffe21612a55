import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import type { ProviderName } from '../../schema';
import { rows } from '../deliveries/rows';
import { interval, jsonb } from '../sql-params';

// The inbox job's streams (docs/inbox.md#reading): one cursor row per account and stream, claimed like every job's
// work (SKIP LOCKED, a generation, a lease) and written only under the claim's generation.

/** Gives every connected account a cursor row for each stream its network has (once: the primary key). */
export async function addInboxStreams(
  db: Executor,
  params: { streams: { provider: ProviderName; stream: string }[] },
): Promise<number> {
  if (params.streams.length === 0) return 0;
  const result = await db.execute(sql`
    insert into inbox_cursors (account_id, stream, workspace_id)
    select a.id, s.stream, a.workspace_id
    from jsonb_to_recordset(${jsonb(params.streams)}) as s(provider text, stream text)
    join social_accounts a on a.provider::text = s.provider and a.disconnected_at is null
    join workspaces w on w.id = a.workspace_id and w.deleted_at is null
    on conflict do nothing
    returning account_id`);
  return [...result].length;
}

export type ClaimedInboxStream = {
  accountId: string;
  stream: string;
  generation: number;
  cursor: string | null;
  failures: number;
  workspaceId: string;
  provider: ProviderName;
  sandbox: boolean;
  handle: string;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  accountCreatedAt: Date;
  disconnected: boolean;
  canRead: boolean;
};

/** Takes up to `limit` due streams, one reader each (SKIP LOCKED, generation + 1, a lease). */
export async function claimDueInboxStreams(
  db: Executor,
  params: { workerId: string; limit: number; leaseMs: number; accountIds?: string[] },
): Promise<ClaimedInboxStream[]> {
  const only = params.accountIds
    ? sql`and c.account_id in (select jsonb_array_elements_text(${jsonb(params.accountIds)})::uuid)`
    : sql``;
  const result = await db.execute(sql`
    with picked as (
      select c.account_id, c.stream from inbox_cursors c
      where c.next_read_at <= now() and (c.lease_expires_at is null or c.lease_expires_at < now()) ${only}
      order by c.next_read_at
      limit ${params.limit}
      for update of c skip locked
    ), bumped as (
      update inbox_cursors c set generation = c.generation + 1, worker_id = ${params.workerId},
        lease_expires_at = now() + ${interval(params.leaseMs)}
      from picked where c.account_id = picked.account_id and c.stream = picked.stream
      returning c.*
    )
    select b.account_id as "accountId", b.stream, b.generation, b.cursor, b.failures, b.workspace_id as "workspaceId",
      a.provider, a.sandbox, a.handle, a.base_url as "baseUrl", a.platform_user_id as "platformUserId",
      a.credentials_encrypted as "credentialsEncrypted", a.created_at as "accountCreatedAt",
      a.disconnected_at is not null as "disconnected", a.token_status = 'ok' as "canRead"
    from bumped b join social_accounts a on a.id = b.account_id`);
  return rows<Record<string, unknown>>(result).map((r) => ({
    ...r,
    accountCreatedAt: new Date(r.accountCreatedAt as string),
  })) as ClaimedInboxStream[];
}

/**
 * Hands a stream back, fenced by the claim's generation: read next at `nextReadAt`; `error` counts a failed read
 * (reset by a good one). False when a newer claim took the stream meanwhile.
 */
export async function releaseInboxStream(
  db: Executor,
  params: { accountId: string; stream: string; generation: number; nextReadAt: Date; error?: string | null },
): Promise<boolean> {
  const failed = params.error !== undefined && params.error !== null;
  const result = await db.execute(sql`
    update inbox_cursors set lease_expires_at = null, worker_id = null,
      next_read_at = ${params.nextReadAt.toISOString()}::timestamptz,
      failures = ${failed ? sql`failures + 1` : sql`0`},
      last_error = ${failed ? params.error!.slice(0, 300) : null},
      last_read_at = ${failed ? sql`last_read_at` : sql`now()`}
    where account_id = ${params.accountId} and stream = ${params.stream} and generation = ${params.generation}
    returning account_id`);
  return [...result].length > 0;
}

/** Moves the stream's cursor under the claim: false when the lease lapsed or a newer claim holds it (write nothing). */
export async function advanceInboxCursor(
  db: Executor,
  params: { accountId: string; stream: string; generation: number; cursor: string | null },
): Promise<boolean> {
  const result = await db.execute(sql`
    update inbox_cursors set cursor = ${params.cursor}
    where account_id = ${params.accountId} and stream = ${params.stream} and generation = ${params.generation}
      and lease_expires_at > now()
    returning account_id`);
  return [...result].length > 0;
}

/** The account's sent posts of the last days, newest first: what per-post streams (comments) read under. */
export async function listInboxPosts(
  db: Executor,
  params: { accountId: string; sinceMs: number; limit: number },
): Promise<{ id: string; publishedAt: Date }[]> {
  const result = await db.execute(sql`
    select d.external_id as id, d.settled_at as "publishedAt"
    from deliveries d join posts p on p.id = d.post_id
    where d.account_id = ${params.accountId} and d.status = 'sent' and d.external_id is not null
      and p.kind <> 'dm' and d.settled_at > now() - ${interval(params.sinceMs)}
    order by d.settled_at desc
    limit ${params.limit}`);
  return rows<{ id: string; publishedAt: string }>(result).map((r) => ({
    id: r.id,
    publishedAt: new Date(r.publishedAt),
  }));
}
