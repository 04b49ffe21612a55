import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { executePrepared } from '../prepared';
import { interval, jsonb } from '../sql-params';
import { deliveryTextSql } from '../post-variants';
import { latenessDeadline } from './lateness';
import { deliveryInReplyTo, deliveryKind } from './thread';
import type { ProviderName, ProviderState } from '@/db/schema';

export type AmbiguousDelivery = {
  deliveryId: string;
  generation: number;
  workspaceId: string;
  postId: string;
  accountId: string;
  /** The thread part (0 for every other kind): its text, and for k > 0 a reply to part k-1's platform id. */
  part: number;
  text: string;
  kind: 'post' | 'reply' | 'dm';
  inReplyTo: string | null;
  recipient: string | null;
  /** The lateness limit runs out at this time (from the scheduled time, or from an admin's "publish now"). */
  deadline: Date;
  provider: ProviderName;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  accountDisconnected: boolean;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
  /** What each attempt that ended ambiguous said (classification rule and evidence), oldest first. */
  ambiguousDetails: { rule?: string; evidence?: Record<string, unknown> }[];
  /** What the provider kept across attempts (deliveries.provider_state). */
  providerState: ProviderState;
  notFoundReads: number;
  firstNotFoundAt: Date | null;
  unreadableReads: number;
  /** Times this delivery was released to be published again (each after its own proof of absence). */
  releases: number;
};

/**
 * Takes up to `limit` ambiguous deliveries whose next check is due, one reconciler per delivery: the
 * claim's generation is bumped (fencing any older writer) and its lease set for this check.
 */
export async function claimAmbiguousDeliveries(
  db: Executor,
  params: { workerId: string; limit: number; leaseMs: number },
) {
  const result = await executePrepared(
    db,
    sql`
    with picked as (
      select d.id from deliveries d join claims c on c.delivery_id = d.id
      where d.status = 'ambiguous' and d.due_at <= now() and c.released_at is null and c.lease_expires_at < now()
      order by d.due_at
      limit ${params.limit}
      for update of d, c skip locked
    ), bumped as (
      update claims c set generation = c.generation + 1, worker_id = ${params.workerId}, lease_expires_at = now() + ${interval(params.leaseMs)}, claimed_at = now()
      from picked where c.delivery_id = picked.id
      returning c.delivery_id, c.generation
    )
    select b.delivery_id as "deliveryId", b.generation, d.workspace_id as "workspaceId", p.id as "postId", d.part,
      ${deliveryTextSql} as text, ${deliveryKind} as kind, ${deliveryInReplyTo} as "inReplyTo", p.recipient, ${latenessDeadline} as deadline, d.account_id as "accountId",
      a.provider, a.base_url as "baseUrl", a.platform_user_id as "platformUserId", a.credentials_encrypted as "credentialsEncrypted",
      a.disconnected_at is not null as "accountDisconnected",
      (select count(*)::int from reconciliations r where r.delivery_id = d.id and r.decision = 'released') as releases,
      (select min(started_at) from attempts t where t.delivery_id = d.id) as "firstAttemptAt",
      (select max(started_at) from attempts t where t.delivery_id = d.id) as "lastAttemptAt",
      coalesce((select jsonb_agg(e.detail order by e.id) from delivery_events e
        where e.delivery_id = d.id and e.to_status = 'ambiguous' and e.detail ? 'rule'), '[]'::jsonb) as "ambiguousDetails",
      d.provider_state as "providerState",
      s.not_found_reads::int as "notFoundReads", s.first_not_found_at as "firstNotFoundAt", s.unreadable_reads::int as "unreadableReads"
    from bumped b
    join deliveries d on d.id = b.delivery_id
    join posts p on p.id = d.post_id
    join workspaces w on w.id = d.workspace_id
    join social_accounts a on a.id = d.account_id
    cross join lateral (
      select count(*) filter (where r.decision = 'not_found_recheck') as not_found_reads,
             min(r.checked_at) filter (where r.decision = 'not_found_recheck') as first_not_found_at,
             count(*) filter (where r.decision = 'unreadable') as unreadable_reads
      from reconciliations r
      where r.delivery_id = d.id
        and r.checked_at >= coalesce((select max(e.created_at) from delivery_events e where e.delivery_id = d.id and e.to_status = 'ambiguous'), '-infinity')
    ) s`,
  );
  return [...result].map((r) => {
    const row = r as Record<string, unknown>;
    return {
      ...row,
      deadline: new Date(row.deadline as string),
      firstAttemptAt: new Date(row.firstAttemptAt as string),
      lastAttemptAt: new Date(row.lastAttemptAt as string),
      firstNotFoundAt: row.firstNotFoundAt ? new Date(row.firstNotFoundAt as string) : null,
    } as AmbiguousDelivery;
  });
}

export type ReconcileDecision = {
  deliveryId: string;
  generation: number;
  strategy: string;
  decision: 'found' | 'not_found_recheck' | 'released' | 'needs_review' | 'unreadable' | 'waiting';
  /** The delivery's new status: stays ambiguous (check again at nextCheckAt), or sent / scheduled / needs_review. */
  status: 'ambiguous' | 'sent' | 'scheduled' | 'needs_review';
  reason: string;
  windowStart?: Date | null;
  windowEnd?: Date | null;
  readCount?: number | null;
  externalId?: string | null;
  url?: string | null;
  nextCheckAt?: Date | null;
  evidence: Record<string, unknown>;
  /** On a release, the provider_state keys dropped (an expired container, so the next attempt makes a new one). */
  dropState?: string[];
};

/**
 * Stores the check (always a row: nothing is decided without one) and applies its decision, fenced by
 * the reconciler's claim generation and the delivery still being ambiguous. False when fenced out.
 */
export async function recordReconcileDecision(db: Executor, params: ReconcileDecision & { actor: string }) {
  const p = params;
  const result = await db.execute(sql`
    with target as (
      select d.id, d.workspace_id from deliveries d join claims c on c.delivery_id = d.id
      where d.id = ${p.deliveryId} and c.generation = ${p.generation} and c.released_at is null and d.status = 'ambiguous'
      for update of d, c
    ), stored as (
      insert into reconciliations (delivery_id, strategy, window_start, window_end, read_count, matched_external_id, decision, evidence, next_check_at)
      select id, ${p.strategy}, ${p.windowStart?.toISOString() ?? null}::timestamptz, ${p.windowEnd?.toISOString() ?? null}::timestamptz, ${p.readCount ?? null}::int,
        ${p.externalId ?? null}, ${p.decision}::reconcile_decision, ${jsonb(p.evidence)}, ${p.nextCheckAt?.toISOString() ?? null}::timestamptz
      from target
      returning id
    ), updated as (
      update deliveries d set
        status = ${p.status}::delivery_status,
        external_id = coalesce(${p.externalId ?? null}, d.external_id),
        external_url = coalesce(${p.url ?? null}, d.external_url),
        due_at = case when ${p.status} = 'ambiguous' then coalesce(${p.nextCheckAt?.toISOString() ?? null}::timestamptz, now()) else now() end,
        settled_at = case when ${p.status} = 'sent' then now() else d.settled_at end,
        provider_state = case when ${p.status} = 'scheduled' then d.provider_state - array(select jsonb_array_elements_text(${jsonb(p.dropState ?? [])}))
          else d.provider_state end,
        updated_at = now()
      from target where d.id = target.id
      returning d.id
    ), claim as (
      update claims c set lease_expires_at = now(), released_at = case when ${p.status} = 'ambiguous' then null else now() end
      from target where c.delivery_id = target.id
      returning c.delivery_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select workspace_id, id, 'ambiguous', ${p.status}::delivery_status, ${p.actor}, ${p.reason},
        jsonb_build_object('strategy', ${p.strategy}::text, 'decision', ${p.decision}::text, 'externalId', ${p.externalId ?? null}::text)
      from target where ${p.status} <> 'ambiguous'
    ), notified as (
      insert into notifications (workspace_id, delivery_id, kind, message)
      select workspace_id, id, 'needs_review', 'A delivery needs review: ' || ${p.reason}::text from target where ${p.status} = 'needs_review'
      on conflict (delivery_id, kind) do nothing
    )
    select (select count(*) from stored)::int as n`);
  return Number(([...result][0] as { n: number }).n) === 1;
}
