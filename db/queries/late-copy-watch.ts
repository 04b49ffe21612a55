import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveryTextSql } from './post-variants';
import { deliveryInReplyTo, deliveryKind } from './deliveries/thread';
import { interval, jsonb } from './sql-params';
import type { ProviderName } from '@/db/schema';

// The watch for a late copy (docs/architecture.md#late-copies). A trigger (migration 0018) creates one row per
// delivery that was published again after a release, when it is recorded sent; step k falls due at startedAt +
// delays[k]. Claims bump the generation like the reconciler's, so a watcher whose lease lapsed writes nothing.

export type DueWatch = {
  deliveryId: string;
  generation: number;
  /** The step this check takes (0 for the first delay). */
  step: number;
  workspaceId: string;
  postId: string;
  accountId: string;
  status: string;
  externalId: string | null;
  text: string;
  kind: 'post' | 'reply' | 'dm';
  inReplyTo: string | null;
  provider: ProviderName;
  baseUrl: string;
  platformUserId: string;
  credentialsEncrypted: string;
  accountDisconnected: boolean;
  firstAttemptAt: Date;
};

/** Takes up to `limit` watches whose next step is due (`delaysMs[checksDone]` after the start), one watcher each. */
export async function claimDueWatches(
  db: Executor,
  params: { workerId: string; limit: number; leaseMs: number; delaysMs: number[] },
): Promise<DueWatch[]> {
  const result = await db.execute(sql`
    with picked as (
      select w.delivery_id from late_copy_watches w
      -- A watch with every configured step done (the delays were shortened since) is due, to be ended.
      where w.ended_at is null
        and (w.checks_done >= ${params.delaysMs.length}
          or w.started_at + ((${jsonb(params.delaysMs)}->>w.checks_done)::bigint * interval '1 millisecond') <= now())
        and (w.lease_expires_at is null or w.lease_expires_at < now())
      order by w.started_at
      limit ${params.limit}
      for update of w skip locked
    ), bumped as (
      update late_copy_watches w set generation = w.generation + 1, worker_id = ${params.workerId},
        lease_expires_at = now() + ${interval(params.leaseMs)}
      from picked where w.delivery_id = picked.delivery_id
      returning w.delivery_id, w.generation, w.checks_done
    )
    select b.delivery_id as "deliveryId", b.generation, b.checks_done as step, d.workspace_id as "workspaceId",
      d.post_id as "postId", d.account_id as "accountId", d.status, d.external_id as "externalId",
      ${deliveryTextSql} as text, ${deliveryKind} as kind, ${deliveryInReplyTo} as "inReplyTo",
      a.provider, a.base_url as "baseUrl", a.platform_user_id as "platformUserId",
      a.credentials_encrypted as "credentialsEncrypted", a.disconnected_at is not null as "accountDisconnected",
      (select min(t.started_at) from attempts t where t.delivery_id = d.id) as "firstAttemptAt"
    from bumped b
    join deliveries d on d.id = b.delivery_id
    join posts p on p.id = d.post_id
    join social_accounts a on a.id = d.account_id`);
  return [...result].map((r) => {
    const row = r as Record<string, unknown>;
    return { ...row, firstAttemptAt: new Date(row.firstAttemptAt as string) } as DueWatch;
  });
}

export type WatchCheck = {
  deliveryId: string;
  generation: number;
  step: number;
  strategy: string;
  windowStart?: Date | null;
  windowEnd?: Date | null;
  readCount?: number | null;
  evidence: Record<string, unknown>;
  /** Set when this check ends the watch: `clear` (last step), `stopped`, `not_needed`. */
  endWith?: 'clear' | 'stopped' | 'not_needed' | null;
};

/**
 * Stores a check that found no late copy (one row per step: reconciliations_watch_step_uq) and moves the watch on,
 * fenced by the watcher's generation. False when fenced out (another watcher took it over).
 */
export async function recordWatchCheck(db: Executor, p: WatchCheck): Promise<boolean> {
  const result = await db.execute(sql`
    with target as (
      select w.delivery_id from late_copy_watches w
      where w.delivery_id = ${p.deliveryId} and w.generation = ${p.generation} and w.ended_at is null
        and w.checks_done = ${p.step}
      for update
    ), stored as (
      insert into reconciliations (delivery_id, strategy, window_start, window_end, read_count, decision, evidence, watch_step)
      select delivery_id, ${p.strategy}, ${p.windowStart?.toISOString() ?? null}::timestamptz,
        ${p.windowEnd?.toISOString() ?? null}::timestamptz, ${p.readCount ?? null}::int, 'watch_clear',
        ${jsonb(p.evidence)}, ${p.step}
      from target
      on conflict (delivery_id, watch_step) where watch_step is not null do nothing
      returning delivery_id
    ), moved as (
      update late_copy_watches w set checks_done = w.checks_done + 1, lease_expires_at = null,
        ended_at = case when ${p.endWith ?? null}::text is null then null else now() end,
        outcome = ${p.endWith ?? null}::text
      from stored where w.delivery_id = stored.delivery_id
      returning w.delivery_id
    )
    select (select count(*) from moved)::int as n`);
  return Number(([...result][0] as { n: number }).n) === 1;
}

/** The watch of one delivery with its stored checks (the post page and the tests show them). */
export async function getLateCopyWatch(db: Executor, params: { workspaceId: string; deliveryId: string }) {
  const result = await db.execute(sql`
    select w.delivery_id as "deliveryId", w.started_at as "startedAt", w.checks_done as "checksDone", w.ended_at as "endedAt",
      w.outcome from late_copy_watches w
    where w.delivery_id = ${params.deliveryId} and w.workspace_id = ${params.workspaceId}`);
  const row = [...result][0] as
    | { deliveryId: string; startedAt: string; checksDone: number; endedAt: string | null; outcome: string | null }
    | undefined;
  return row ?? null;
}

/** Ends a watch without a check (the delivery is no longer sent, or a second copy cannot exist), fenced. */
export async function endWatch(
  db: Executor,
  params: { deliveryId: string; generation: number; outcome: 'clear' | 'stopped' | 'not_needed' },
): Promise<boolean> {
  const result = await db.execute(sql`
    update late_copy_watches set ended_at = now(), outcome = ${params.outcome}, lease_expires_at = null
    where delivery_id = ${params.deliveryId} and generation = ${params.generation} and ended_at is null
    returning delivery_id`);
  return [...result].length === 1;
}
