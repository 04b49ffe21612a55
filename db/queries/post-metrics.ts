import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { METRIC_NAMES } from '../metric-names';
import type { ProviderName } from '../schema';
import { rows } from './deliveries/rows';
import { interval, jsonb } from './sql-params';

// The metrics job's statements (docs/analytics.md#the-metrics-job). A sent delivery gets its post_metrics row when
// its first reading falls due (the job finds it from deliveries.settled_at: nothing is written when it is published);
// each reading is claimed with a lease and a generation like every other job's work, and recorded fenced by that
// generation, its snapshot unique per delivery and reading time.

const columns = sql.raw(METRIC_NAMES.join(', '));

/**
 * Gives every sent delivery (not a DM) settled within `horizonMs` a post_metrics row, once
 * (`post_metrics_pkey`): its publish time (the start of the call that made it, else when it was confirmed) and the
 * reading now due, or the first one ahead. A delivery found late starts at the latest reading already due (the
 * earlier ones cannot be read any more). Returns how many rows it added.
 */
export async function addDueMetricReads(
  db: Executor,
  params: {
    delaysMs: number[];
    horizonMs: number;
    limit: number;
    /**
     * Networks whose replies (a delivery's part > 0: a first comment, a thread's later parts) have no metrics to read
     * (an Instagram comment has no insights): their rows are added stopped, `unsupported`, never claimed.
     */
    repliesWithoutMetrics?: ProviderName[];
  },
): Promise<number> {
  const result = await db.execute(sql`
    with delays as (
      select (d.value)::bigint as ms, (d.ordinality - 1)::int as k
      from jsonb_array_elements(${jsonb(params.delaysMs)}) with ordinality d
    ), unread as materialized (
      -- The deliveries sent within the horizon (deliveries_sent_settled_idx) without their row yet: a handful day to day.
      -- Materialized, so their posts are then read by key rather than every post scanned to join them.
      select d.id, d.workspace_id, d.post_id, d.account_id, d.part, d.settled_at
      from deliveries d
      where d.status = 'sent' and d.settled_at > now() - ${interval(params.horizonMs)} and d.external_id is not null
        and not exists (select 1 from post_metrics m where m.delivery_id = d.id)
    ), found as (
      select d.id, d.workspace_id, d.post_id, d.account_id, a.provider, d.part,
        coalesce((select max(t.started_at) from attempts t where t.delivery_id = d.id), d.settled_at) as published_at,
        d.part > 0 and a.provider::text = any(${sql.param(params.repliesWithoutMetrics ?? [])}::text[]) as unreadable
      from unread d
      join workspaces w on w.id = d.workspace_id
      join posts p on p.id = d.post_id
      join social_accounts a on a.id = d.account_id
      where p.kind <> 'dm'
      limit ${params.limit}
    ), placed as (
      select f.*, greatest(0, (select count(*) from delays where f.published_at + delays.ms * interval '1 millisecond' <= now()) - 1)::int as k
      from found f
    )
    insert into post_metrics (delivery_id, workspace_id, post_id, account_id, provider, part, published_at, next_reading,
      next_due_at, stopped_reason, stopped_at)
    select p.id, p.workspace_id, p.post_id, p.account_id, p.provider, p.part, p.published_at, p.k,
      case when not p.unreadable then p.published_at + (select ms from delays where delays.k = p.k) * interval '1 millisecond' end,
      case when p.unreadable then 'unsupported' end, case when p.unreadable then now() end
    from placed p
    on conflict (delivery_id) do nothing
    returning delivery_id`);
  return [...result].length;
}

export type DueMetricRead = {
  deliveryId: string;
  generation: number;
  workspaceId: string;
  postId: string;
  accountId: string;
  provider: ProviderName;
  publishedAt: Date;
  nextReading: number;
  readingAt: Date;
  failures: number;
  deliveryStatus: string;
  externalId: string | null;
  sandbox: boolean;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  accountDisconnected: boolean;
  accountCanRead: boolean;
  /** When a read first left the post out (post_metrics.missed_at), if the last one did. */
  missedAt: Date | null;
};

/** Takes up to `limit` due readings, one reader each (SKIP LOCKED, generation + 1, a lease). */
export async function claimDueMetricReads(
  db: Executor,
  params: { workerId: string; limit: number; leaseMs: number },
): Promise<DueMetricRead[]> {
  const result = await db.execute(sql`
    with picked as (
      select m.delivery_id from post_metrics m
      where m.next_due_at <= now() and (m.lease_expires_at is null or m.lease_expires_at < now())
      order by m.next_due_at
      limit ${params.limit}
      for update of m skip locked
    ), bumped as (
      update post_metrics m set generation = m.generation + 1, worker_id = ${params.workerId},
        lease_expires_at = now() + ${interval(params.leaseMs)}
      from picked where m.delivery_id = picked.delivery_id
      returning m.*
    )
    select b.delivery_id as "deliveryId", b.generation, b.workspace_id as "workspaceId", b.post_id as "postId",
      b.account_id as "accountId", b.provider, b.published_at as "publishedAt", b.next_reading as "nextReading",
      b.next_due_at as "readingAt", b.failures, b.missed_at as "missedAt", d.status as "deliveryStatus",
      d.external_id as "externalId",
      a.sandbox, a.base_url as "baseUrl", a.platform_user_id as "platformUserId",
      a.credentials_encrypted as "credentialsEncrypted", a.disconnected_at is not null as "accountDisconnected",
      a.token_status = 'ok' as "accountCanRead"
    from bumped b
    join deliveries d on d.id = b.delivery_id
    join social_accounts a on a.id = b.account_id`);
  return rows<Record<string, unknown>>(result).map((r) => ({
    ...r,
    publishedAt: new Date(r.publishedAt as string),
    readingAt: new Date(r.readingAt as string),
    missedAt: r.missedAt ? new Date(r.missedAt as string) : null,
  })) as DueMetricRead[];
}

export type MetricReading = {
  deliveryId: string;
  generation: number;
  reading: number;
  readingAt: Date;
  metrics: Partial<Record<(typeof METRIC_NAMES)[number], number>>;
  engagement: number | null;
  /** The reading after this one (null: this was the last: reading stops, `done`). */
  next: { reading: number; dueAt: Date } | null;
};

export type RecordedReading = { deliveryId: string; workspaceId: string; postId: string; accountId: string };

/**
 * Records readings, fenced by each claim's generation: the snapshot (once per delivery and reading time,
 * `metric_snapshots_delivery_reading_uq`), the latest values on post_metrics and the next reading, in one statement.
 * A reader whose lease lapsed and was taken over records nothing. Returns what was recorded.
 */
export async function recordMetricReadings(db: Executor, readings: MetricReading[]): Promise<RecordedReading[]> {
  if (readings.length === 0) return [];
  const input = readings.map((r) => ({
    delivery_id: r.deliveryId,
    generation: r.generation,
    reading: r.reading,
    reading_at: r.readingAt.toISOString(),
    ...Object.fromEntries(METRIC_NAMES.map((m) => [m, r.metrics[m] ?? null])),
    engagement: r.engagement,
    next_reading: r.next?.reading ?? r.reading + 1,
    next_due_at: r.next?.dueAt.toISOString() ?? null,
  }));
  const metricTypes = sql.raw(METRIC_NAMES.map((m) => `${m} bigint`).join(', '));
  const setLatest = sql.raw(METRIC_NAMES.map((m) => `${m} = i.${m}`).join(', '));
  const fromInput = sql.raw(METRIC_NAMES.map((m) => `i.${m}`).join(', '));
  const result = await db.execute(sql`
    with i as (
      select * from jsonb_to_recordset(${jsonb(input)}) as x(delivery_id uuid, generation int, reading int,
        reading_at timestamptz, ${metricTypes}, engagement bigint, next_reading int, next_due_at timestamptz)
    ), held as (
      select m.delivery_id, m.workspace_id from post_metrics m join i on i.delivery_id = m.delivery_id
      where m.generation = i.generation and m.lease_expires_at is not null
      for update of m
    ), snapshot as (
      insert into metric_snapshots (workspace_id, delivery_id, reading, reading_at, ${columns})
      select held.workspace_id, i.delivery_id, i.reading, i.reading_at, ${fromInput}
      from i join held on held.delivery_id = i.delivery_id
      on conflict (delivery_id, reading_at) do nothing
      returning delivery_id
    )
    update post_metrics m set ${setLatest}, engagement = i.engagement, read_at = now(), failures = 0, missed_at = null,
      next_reading = i.next_reading, next_due_at = i.next_due_at, lease_expires_at = null,
      stopped_reason = case when i.next_due_at is null then 'done' end,
      stopped_at = case when i.next_due_at is null then now() end
    from i join held on held.delivery_id = i.delivery_id
    where m.delivery_id = i.delivery_id
    returning m.delivery_id as "deliveryId", m.workspace_id as "workspaceId", m.post_id as "postId",
      m.account_id as "accountId"`);
  return rows<RecordedReading>(result);
}

export type MetricRelease = {
  deliveryId: string;
  generation: number;
  /** When to try this reading again; null with `stop`: never. */
  dueAt: Date | null;
  /** The reading could not be made (the platform failed to answer it): counted, so a reading is not tried for ever. */
  failed?: boolean;
  /** Reading this delivery ends: `deleted` (gone from the platform), `unsupported` (the network gives nothing). */
  stop?: 'deleted' | 'unsupported';
  /** Skip to this reading (the one due was tried too often). */
  skipTo?: { reading: number; dueAt: Date | null };
  /** The read left the post out: its first miss is kept (missed_at), to be confirmed by a later read. */
  missed?: boolean;
};

/** Hands readings back without a snapshot, fenced by generation: later, skipped, or stopped for good. */
export async function releaseMetricReads(db: Executor, releases: MetricRelease[]): Promise<number> {
  if (releases.length === 0) return 0;
  const input = releases.map((r) => ({
    delivery_id: r.deliveryId,
    generation: r.generation,
    due_at: (r.skipTo ? r.skipTo.dueAt : r.dueAt)?.toISOString() ?? null,
    failed: r.failed === true && !r.skipTo,
    stop: r.stop ?? (r.skipTo && r.skipTo.dueAt === null ? 'done' : null),
    next_reading: r.skipTo?.reading ?? null,
    missed: r.missed === true,
  }));
  const result = await db.execute(sql`
    with i as (
      select * from jsonb_to_recordset(${jsonb(input)}) as x(delivery_id uuid, generation int, due_at timestamptz,
        failed boolean, stop text, next_reading int, missed boolean)
    )
    update post_metrics m set lease_expires_at = null,
      missed_at = case when i.missed then coalesce(m.missed_at, now()) else m.missed_at end,
      next_due_at = case when i.stop is null then i.due_at end,
      next_reading = coalesce(i.next_reading, m.next_reading),
      failures = case when i.failed then m.failures + 1 when i.next_reading is not null then 0 else m.failures end,
      stopped_reason = coalesce(i.stop, m.stopped_reason),
      stopped_at = case when i.stop is not null then now() else m.stopped_at end
    from i
    where m.delivery_id = i.delivery_id and m.generation = i.generation and m.lease_expires_at is not null
    returning m.delivery_id`);
  return [...result].length;
}

/**
 * A post's deliveries with their read state and every reading, oldest first (the post page, the API); empty when the
 * post is not this workspace's.
 */
export async function listPostMetricHistory(db: Executor, params: { workspaceId: string; postId: string }) {
  const deliveries = rows<{
    deliveryId: string;
    accountId: string;
    handle: string;
    provider: ProviderName;
    part: number;
    status: string;
    tracked: boolean;
    nextDueAt: string | null;
    nextDue: boolean;
    stoppedReason: 'done' | 'deleted' | 'unsupported' | null;
    stoppedAt: string | null;
  }>(
    await db.execute(sql`
      select d.id as "deliveryId", d.account_id as "accountId", a.handle, a.provider, d.part, d.status,
        m.delivery_id is not null as tracked, to_json(m.next_due_at)#>>'{}' as "nextDueAt",
        coalesce(m.next_due_at <= now(), false) as "nextDue",
        m.stopped_reason as "stoppedReason", to_json(m.stopped_at)#>>'{}' as "stoppedAt"
      from deliveries d
      join social_accounts a on a.id = d.account_id
      left join post_metrics m on m.delivery_id = d.id
      where d.workspace_id = ${params.workspaceId} and d.post_id = ${params.postId}
      order by d.part, a.provider, a.handle`),
  );
  const snapshots = rows<Record<string, unknown>>(
    await db.execute(sql`
      select s.delivery_id as "deliveryId", s.reading, to_json(s.reading_at)#>>'{}' as "readingAt",
        to_json(s.taken_at)#>>'{}' as "takenAt", ${sql.raw(METRIC_NAMES.map((m) => `s.${m}::float8 as ${m}`).join(', '))}
      from metric_snapshots s join deliveries d on d.id = s.delivery_id
      where s.workspace_id = ${params.workspaceId} and d.post_id = ${params.postId}
      order by s.delivery_id, s.reading_at`),
  );
  return { deliveries, snapshots };
}
