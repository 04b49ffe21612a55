import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import type { DeliveryStatus } from '../schema';
import { latenessDeadline } from './lateness';
import { interval, jsonb, uuidList } from './sql-params';

// Every guard of the publishing path is one atomic statement (docs/architecture.md#write-order): row locks with SKIP LOCKED
// pick one claimer, the claim's generation fences every later write, and status checks keep them monotonic.

const rows = <T>(result: Iterable<unknown>) => [...result] as T[];

export type ClaimedDelivery = { deliveryId: string; generation: number; accountId: string; provider: 'x' | 'mastodon' | 'bluesky'; sandbox: boolean };

/** Claims up to `limit` due deliveries for `workerId`: scheduled → publishing, claim generation + 1, history row. */
export async function claimDueDeliveries(db: Executor, params: { workerId: string; limit: number; leaseMs: number }) {
  const result = await db.execute(sql`
    with due as (
      select d.id from deliveries d
      where d.status = 'scheduled' and d.due_at <= now()
        -- A disconnected account's token is wiped: its deliveries are held for review, never published.
        and not exists (select 1 from social_accounts a where a.id = d.account_id and a.disconnected_at is not null)
      order by d.due_at
      limit ${params.limit}
      for update skip locked
    ), claimed as (
      insert into claims as c (delivery_id, generation, worker_id, lease_expires_at, claimed_at, released_at)
      select id, 1, ${params.workerId}, now() + ${interval(params.leaseMs)}, now(), null from due
      on conflict (delivery_id) do update
        set generation = c.generation + 1, worker_id = excluded.worker_id, lease_expires_at = excluded.lease_expires_at,
            claimed_at = excluded.claimed_at, released_at = null
        where c.released_at is not null
      returning c.delivery_id, c.generation
    ), moved as (
      update deliveries d set status = 'publishing', attempt_count = d.attempt_count + 1, updated_at = now()
      from claimed where d.id = claimed.delivery_id
      returning d.id, d.workspace_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select m.workspace_id, m.id, 'scheduled', 'publishing', ${`worker:${params.workerId}`}, 'claimed', jsonb_build_object('generation', cl.generation)
      from moved m join claimed cl on cl.delivery_id = m.id
    )
    select cl.delivery_id as "deliveryId", cl.generation, d.account_id as "accountId", a.provider, a.sandbox
    from claimed cl join moved m on m.id = cl.delivery_id
    join deliveries d on d.id = cl.delivery_id join social_accounts a on a.id = d.account_id`);
  return rows<ClaimedDelivery>(result);
}

export type StartedAttempt = {
  attemptId: string; deliveryId: string; generation: number; workspaceId: string; postId: string;
  text: string; kind: 'post' | 'reply' | 'dm'; inReplyTo: string | null; recipient: string | null;
  accountId: string; provider: 'x' | 'mastodon' | 'bluesky'; baseUrl: string; platformUserId: string; credentialsEncrypted: string;
  /** The post's scheduled time as Postgres prints it (metrics: due-to-sent lateness). */
  scheduledAt: string;
};

/**
 * Commits an attempt row `started` for each claim still held at its generation with at least
 * `minLeaseMs` left (the lease re-check before the platform call). Returns what to publish.
 */
export async function startAttempts(db: Executor, params: { claims: Pick<ClaimedDelivery, 'deliveryId' | 'generation'>[]; minLeaseMs: number }) {
  if (params.claims.length === 0) return [];
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(params.claims.map((c) => ({ delivery_id: c.deliveryId, generation: c.generation })))}) as t(delivery_id uuid, generation int)
    ), held as (
      select i.delivery_id, i.generation from input i
      join claims c on c.delivery_id = i.delivery_id and c.generation = i.generation
      join deliveries d on d.id = i.delivery_id
      where c.released_at is null and c.lease_expires_at > now() + ${interval(params.minLeaseMs)} and d.status = 'publishing'
    ), started as (
      insert into attempts (delivery_id, generation) select delivery_id, generation from held
      on conflict (delivery_id, generation) do nothing
      returning id, delivery_id, generation
    )
    select s.id as "attemptId", s.delivery_id as "deliveryId", s.generation, d.workspace_id as "workspaceId", p.id as "postId",
      p.text, p.kind, p.in_reply_to as "inReplyTo", p.recipient, a.id as "accountId", a.provider, a.base_url as "baseUrl",
      a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted", p.scheduled_at as "scheduledAt"
    from started s
    join deliveries d on d.id = s.delivery_id
    join posts p on p.id = d.post_id
    join social_accounts a on a.id = d.account_id`);
  return rows<StartedAttempt>(result);
}

export type DeliveryOutcome = {
  deliveryId: string;
  generation: number;
  attemptId: string | null;
  outcome: 'sent' | 'failed' | 'not_sent' | 'ambiguous' | null;
  /** sent | failed | ambiguous, or scheduled (not sent / deferred: claimed again later). */
  status: Extract<DeliveryStatus, 'sent' | 'failed' | 'ambiguous' | 'scheduled'>;
  externalId?: string | null;
  url?: string | null;
  reason: string;
  httpStatus?: number | null;
  durationMs?: number | null;
  /** For `scheduled`: when it may be claimed again. */
  dueAt?: Date | null;
  detail?: Record<string, unknown>;
};

/**
 * Writes outcomes fenced by claim generation (I4): an outcome whose claim was taken over, released or
 * swept writes nothing. `ambiguous` keeps the claim held: only reconciliation may release it.
 * Returns the delivery ids that were written.
 */
export async function recordOutcomes(db: Executor, params: { outcomes: DeliveryOutcome[]; actor: string }) {
  if (params.outcomes.length === 0) return [];
  const o = params.outcomes;
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${jsonb(o.map((x) => ({
        delivery_id: x.deliveryId, generation: x.generation, attempt_id: x.attemptId, outcome: x.outcome, status: x.status,
        external_id: x.externalId ?? null, url: x.url ?? null, reason: x.reason, http_status: x.httpStatus ?? null,
        duration_ms: x.durationMs == null ? null : Math.round(x.durationMs), due_at: x.dueAt?.toISOString() ?? null, detail: x.detail ?? {},
      })))}) as t(delivery_id uuid, generation int, attempt_id uuid, outcome text, status text, external_id text, url text, reason text,
        http_status int, duration_ms int, due_at timestamptz, detail jsonb)
    ), fenced as (
      select i.*, d.workspace_id from input i
      join claims c on c.delivery_id = i.delivery_id and c.generation = i.generation
      join deliveries d on d.id = i.delivery_id
      where c.released_at is null and d.status = 'publishing'
      for update of c, d
    ), finished as (
      update attempts a set finished_at = now(), outcome = f.outcome::attempt_outcome, http_status = f.http_status, detail = f.reason, duration_ms = f.duration_ms
      from fenced f where a.id = f.attempt_id and a.generation = f.generation
      returning a.id
    ), released as (
      -- ambiguous keeps the claim held (no re-claim) but ends its lease, so reconciliation can take it.
      update claims c set released_at = case when f.status = 'ambiguous' then null else now() end, lease_expires_at = now()
      from fenced f where c.delivery_id = f.delivery_id
      returning c.delivery_id
    ), updated as (
      update deliveries d set
        status = f.status::delivery_status,
        external_id = coalesce(f.external_id, d.external_id),
        external_url = coalesce(f.url, d.external_url),
        failure_reason = case when f.status = 'failed' then f.reason else d.failure_reason end,
        due_at = coalesce(f.due_at, d.due_at),
        settled_at = case when f.status in ('sent', 'failed') then now() else d.settled_at end,
        updated_at = now()
      from fenced f where d.id = f.delivery_id
      returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select f.workspace_id, f.delivery_id, 'publishing', f.status::delivery_status, ${params.actor}, f.reason,
        f.detail || jsonb_build_object('generation', f.generation, 'outcome', f.outcome, 'httpStatus', f.http_status, 'durationMs', f.duration_ms, 'externalId', f.external_id)
      from fenced f
    ), notified as (
      insert into notifications (workspace_id, delivery_id, kind, message)
      select f.workspace_id, f.delivery_id, 'failed', 'A delivery failed: ' || f.reason from fenced f where f.status = 'failed'
      on conflict (delivery_id, kind) do nothing
    )
    select id as "deliveryId" from updated`);
  return rows<{ deliveryId: string }>(result).map((r) => r.deliveryId);
}

/**
 * Claims whose lease ran out (their worker died or stalled): released back to `scheduled` if the
 * attempt never started; `ambiguous` if it did, since the platform may have the post (docs/architecture.md#delivery-states).
 */
export async function sweepExpiredClaims(db: Executor) {
  const result = await db.execute(sql`
    with expired as (
      select c.delivery_id, c.generation, d.workspace_id,
        exists (select 1 from attempts a where a.delivery_id = c.delivery_id and a.generation = c.generation) as started
      from claims c join deliveries d on d.id = c.delivery_id
      where c.released_at is null and c.lease_expires_at < now() and d.status = 'publishing'
      for update of c, d skip locked
    ), released as (
      update claims c set released_at = now() from expired e where c.delivery_id = e.delivery_id and not e.started
      returning c.delivery_id
    ), attempts_closed as (
      update attempts a set finished_at = now(), outcome = 'ambiguous', detail = 'worker lost after the call started'
      from expired e where e.started and a.delivery_id = e.delivery_id and a.generation = e.generation and a.finished_at is null
      returning a.id
    ), updated as (
      update deliveries d set status = (case when e.started then 'ambiguous' else 'scheduled' end)::delivery_status, due_at = now(), updated_at = now()
      from expired e where d.id = e.delivery_id
      returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select e.workspace_id, e.delivery_id, 'publishing', (case when e.started then 'ambiguous' else 'scheduled' end)::delivery_status, 'system:lease-sweeper',
        case when e.started then 'lease expired after the platform call started: outcome unknown' else 'lease expired before any call: released' end,
        jsonb_build_object('generation', e.generation)
      from expired e
    )
    select count(*) filter (where started)::int as ambiguous, count(*) filter (where not started)::int as released from expired`);
  return rows<{ ambiguous: number; released: number }>(result)[0] ?? { ambiguous: 0, released: 0 };
}

/**
 * Due deliveries that can no longer go out on time (workspace lateness limit) become `missed`. Only
 * due ones (docs/architecture.md#delivery-states): the scan is then the due backlog, not every delivery of the coming day, which
 * every publisher pass would read again. One held back past its limit (backoff, rate limit) is marked
 * when it falls due, before any claim of that pass; it is never published late.
 */
export async function markMissedDeliveries(db: Executor) {
  const result = await db.execute(sql`
    with late as (
      select d.id, d.workspace_id from deliveries d
      join posts p on p.id = d.post_id
      join workspaces w on w.id = d.workspace_id
      where d.status = 'scheduled' and d.due_at <= now()
        and ${latenessDeadline} < now()
      for update of d skip locked
    ), updated as (
      update deliveries d set status = 'missed', settled_at = now(), updated_at = now() from late where d.id = late.id returning d.id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
      select workspace_id, id, 'scheduled', 'missed', 'system:publisher', 'past the workspace lateness limit' from late
    )
    select count(*)::int as missed from updated`);
  return rows<{ missed: number }>(result)[0]?.missed ?? 0;
}

/** When the scheduler should wake next: the earliest due delivery or reconciliation check, or expiring lease. */
export async function getNextWakeAt(db: Executor): Promise<Date | null> {
  // One subquery per status, so the scheduled one is a single probe of the partial due index.
  const result = await db.execute(sql`
    select least(
      (select min(due_at) from deliveries where status = 'scheduled'),
      (select min(due_at) from deliveries where status = 'ambiguous'),
      (select min(lease_expires_at) from claims where released_at is null)
    ) as at`);
  const at = rows<{ at: string | Date | null }>(result)[0]?.at;
  return at ? new Date(at) : null;
}

/** Attempts started per account since `since` (the per-account rate limit). */
export async function countRecentAttemptsByAccount(db: Executor, params: { accountIds: string[]; since: Date }) {
  if (params.accountIds.length === 0) return new Map<string, number>();
  const result = await db.execute(sql`
    select d.account_id as "accountId", count(*)::int as n from attempts a join deliveries d on d.id = a.delivery_id
    where d.account_id in ${uuidList(params.accountIds)} and a.started_at > ${params.since.toISOString()}::timestamptz
    group by d.account_id`);
  return new Map(rows<{ accountId: string; n: number }>(result).map((r) => [r.accountId, r.n]));
}

/** Wakes every scheduler listening (delivered on commit when called inside a transaction). */
export async function notifyDue(db: Executor) {
  await db.execute(sql`select pg_notify('postonce_due', '')`);
}
