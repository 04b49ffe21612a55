import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { jsonb } from '../sql-params';

export type LateCopyDetection = {
  deliveryId: string;
  generation: number;
  step: number;
  strategy: string;
  windowStart: Date;
  windowEnd: Date;
  readCount: number;
  /** Every copy found, oldest first: "Delete the extra copies" keeps the first and removes the later ones. */
  copies: { id: string; url: string | null; createdAt: string }[];
  evidence: Record<string, unknown>;
  actor: string;
  /**
   * The status the watch saw: `sent` (a second copy of a republished delivery), or `failed`, `canceled` or `missed`
   * (a copy of a delivery Semel had stopped trying after a release: it is live although it says otherwise).
   */
  from: 'sent' | GaveUpStatus;
};

export type GaveUpStatus = 'failed' | 'canceled' | 'missed';
export const GAVE_UP_STATUSES: readonly string[] = ['failed', 'canceled', 'missed'] satisfies GaveUpStatus[];

export const LATE_COPY_REASON = 'A late copy appeared';
export const GAVE_UP_COPY_REASON = 'A copy appeared after Semel stopped';

function lateCopyNotice(p: LateCopyDetection): { reason: string; message: string } {
  if (p.from === 'sent')
    return {
      reason: LATE_COPY_REASON,
      message: `${LATE_COPY_REASON}: ${p.copies.length} copies on the platform after it was published again. In Review, "Delete the extra copies" removes the later one.`,
    };
  const copies = p.copies.length === 1 ? 'a copy is' : `${p.copies.length} copies are`;
  return {
    reason: GAVE_UP_COPY_REASON,
    message: `${GAVE_UP_COPY_REASON}: it was ${p.from}, yet ${copies} on the platform (an earlier call the platform finished late). In Review, record it as sent or remove the copy.`,
  };
}

/**
 * The watch found a second copy of a sent delivery, or a copy of one given up after a release
 * (docs/architecture.md#late-copies): one statement stores the check, moves the delivery to needs_review with the
 * copies, ends the watch and notifies — fenced by the watcher's generation and the delivery still in the status the
 * watcher saw, so two watchers racing detect it once. Returns the delivery's
 * workspace, post and account when applied (for the webhook event in the same transaction), else null.
 */
export async function recordLateCopy(db: Executor, p: LateCopyDetection) {
  const evidence = { ...p.evidence, copies: p.copies, lateCopy: true };
  const notice = lateCopyNotice(p);
  const result = await db.execute(sql`
    with target as (
      select d.id, d.workspace_id, d.post_id, d.account_id from deliveries d
      join late_copy_watches w on w.delivery_id = d.id
      where d.id = ${p.deliveryId} and w.generation = ${p.generation} and w.ended_at is null
        and w.checks_done = ${p.step} and d.status::text = ${p.from}
      for update of d, w
    ), stored as (
      insert into reconciliations (delivery_id, strategy, window_start, window_end, read_count, decision, evidence, watch_step)
      select id, ${p.strategy}, ${p.windowStart.toISOString()}::timestamptz, ${p.windowEnd.toISOString()}::timestamptz,
        ${p.readCount}::int, 'late_copy', ${jsonb(evidence)}, ${p.step}
      from target
      on conflict (delivery_id, watch_step) where watch_step is not null do nothing
      returning delivery_id
    ), updated as (
      update deliveries d set status = 'needs_review', updated_at = now(), due_at = now()
      from stored where d.id = stored.delivery_id
      returning d.id
    ), ended as (
      update late_copy_watches w set checks_done = w.checks_done + 1, lease_expires_at = null, ended_at = now(),
        outcome = 'late_copy'
      from stored where w.delivery_id = stored.delivery_id
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select t.workspace_id, t.id, ${p.from}::delivery_status, 'needs_review', ${p.actor}, ${notice.reason},
        jsonb_build_object('decision', 'late_copy', 'watchStep', ${p.step}::int, 'copies', ${jsonb(p.copies)})
      from target t join stored s on s.delivery_id = t.id
    ), notified as (
      insert into notifications (workspace_id, delivery_id, kind, message)
      select t.workspace_id, t.id, 'late_copy',
        ${notice.message}
      from target t join stored s on s.delivery_id = t.id
      on conflict (delivery_id, kind) do nothing
    )
    select t.workspace_id as "workspaceId", t.post_id as "postId", t.account_id as "accountId"
    from target t join updated u on u.id = t.id`);
  return ([...result][0] as { workspaceId: string; postId: string; accountId: string } | undefined) ?? null;
}
