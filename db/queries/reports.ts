import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import type { ProviderName } from '../schema';
import { rows } from './deliveries/rows';
import { deliveryTextSql } from './post-variants';

// The proof-of-publication report's reads (lib/reports/publication.ts words them): the deliveries of the posts
// scheduled in a period with how each was settled, and the incidents among them. Every read is workspace-scoped.

/** A timestamp as a raw query returns it (a Date or an ISO-like string, depending on the driver's parsers). */
export type Stamp = Date | string;

export type ReportPeriod = { workspaceId: string; from: Date; to: Date };

export type ReportDeliveryRow = {
  id: string;
  status: string;
  part: number;
  parts: number;
  kind: string;
  text: string;
  provider: ProviderName;
  handle: string;
  scheduled_at: Stamp;
  external_url: string | null;
  failure_reason: string | null;
  settled_at: Stamp | null;
  last_actor: string | null;
  last_reason: string | null;
  last_person: string | null;
  was_ambiguous: boolean;
  found_strategy: string | null;
  found_reads: number | null;
  found_at: Stamp | null;
  sent_call_at: Stamp | null;
  ambiguous_call_at: Stamp | null;
  /** The latest metrics reading (docs/analytics.md): null before the first one, or where the network gives none. */
  read_at: Stamp | null;
  views: number | null;
  likes: number | null;
  reposts: number | null;
  replies: number | null;
  quotes: number | null;
  saves: number | null;
  clicks: number | null;
  engagement: number | null;
};

export type ReportEventRow = {
  at: Stamp;
  to_status: string;
  from_status: string | null;
  reason: string | null;
  person: string | null;
  handle: string;
  text: string;
  next_status: string | null;
};

export type ReportDuplicateRow = { at: Stamp; handle: string; text: string; copies: number; late: boolean };

/** The deliveries (not drafts) of the workspace's posts scheduled in `[from, to)`. */
const inPeriod = (
  params: ReportPeriod,
) => sql`d.workspace_id = ${params.workspaceId} and p.workspace_id = ${params.workspaceId}
    and p.scheduled_at >= ${params.from.toISOString()}::timestamptz and p.scheduled_at < ${params.to.toISOString()}::timestamptz
    and d.status <> 'draft'`;

export async function getReportWorkspace(db: Executor, params: { workspaceId: string }) {
  const [workspace] = rows<{ name: string; time_zone: string }>(
    await db.execute(sql`select name, time_zone from workspaces where id = ${params.workspaceId}`),
  );
  return workspace ?? null;
}

/** Each delivery with its last status change, the reconciliation that found it and the times of its calls. */
export async function listReportDeliveries(db: Executor, params: ReportPeriod) {
  return rows<ReportDeliveryRow>(
    await db.execute(sql`
      select d.id, d.status, d.part, p.kind, p.scheduled_at, d.external_url, d.failure_reason, d.settled_at,
        ${deliveryTextSql} as text, a.provider, a.handle,
        (select count(*)::int from post_parts pp where pp.post_id = p.id) as parts,
        last.actor as last_actor, last.reason as last_reason, u.name as last_person,
        exists (select 1 from delivery_events e where e.delivery_id = d.id and e.to_status = 'ambiguous') as was_ambiguous,
        found.strategy as found_strategy, found.read_count as found_reads, found.checked_at as found_at,
        (select max(t.finished_at) from attempts t where t.delivery_id = d.id and t.outcome = 'sent') as sent_call_at,
        (select max(t.started_at) from attempts t where t.delivery_id = d.id and t.outcome = 'ambiguous') as ambiguous_call_at,
        m.read_at, m.views::float8 as views, m.likes::float8 as likes, m.reposts::float8 as reposts,
        m.replies::float8 as replies, m.quotes::float8 as quotes, m.saves::float8 as saves, m.clicks::float8 as clicks,
        m.engagement::float8 as engagement
      from deliveries d
      join posts p on p.id = d.post_id
      join social_accounts a on a.id = d.account_id
      left join post_metrics m on m.delivery_id = d.id
      left join lateral (
        select e.actor, e.reason from delivery_events e
        where e.delivery_id = d.id and e.to_status = d.status order by e.id desc limit 1
      ) last on true
      left join users u on last.actor = 'user:' || u.id::text
      left join lateral (
        select r.strategy, r.read_count, r.checked_at from reconciliations r
        where r.delivery_id = d.id and r.decision = 'found' order by r.checked_at desc limit 1
      ) found on true
      where ${inPeriod(params)}
      order by p.scheduled_at, a.handle, d.part`),
  );
}

/** The changes to ambiguous and every person's decision, with the status that followed each. */
export async function listReportEvents(db: Executor, params: ReportPeriod) {
  return rows<ReportEventRow>(
    await db.execute(sql`
      select e.created_at as at, e.to_status, e.from_status, e.reason, u.name as person, a.handle,
        ${deliveryTextSql} as text,
        (select n.to_status from delivery_events n where n.delivery_id = e.delivery_id and n.id > e.id order by n.id limit 1) as next_status
      from delivery_events e
      join deliveries d on d.id = e.delivery_id
      join posts p on p.id = d.post_id
      join social_accounts a on a.id = d.account_id
      left join users u on e.actor = 'user:' || u.id::text
      where ${inPeriod(params)} and (e.to_status = 'ambiguous' or e.actor like 'user:%')
        and e.from_status is not null
      order by e.created_at, e.id`),
  );
}

/** The reconciliations that found more than one copy on the platform (duplicates and late copies). */
export async function listReportDuplicates(db: Executor, params: ReportPeriod) {
  return rows<ReportDuplicateRow>(
    await db.execute(sql`
      select r.checked_at as at, a.handle, ${deliveryTextSql} as text,
        jsonb_array_length(r.evidence -> 'copies')::int as copies, r.decision = 'late_copy' as late
      from reconciliations r
      join deliveries d on d.id = r.delivery_id
      join posts p on p.id = d.post_id
      join social_accounts a on a.id = d.account_id
      where ${inPeriod(params)} and jsonb_typeof(r.evidence -> 'copies') = 'array' and jsonb_array_length(r.evidence -> 'copies') > 1
      order by r.checked_at`),
  );
}
