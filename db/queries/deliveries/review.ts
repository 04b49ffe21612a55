import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { jsonb } from '../sql-params';

export type ReviewResolution =
  | { action: 'live'; externalId: string; url: string | null }
  /** Extra copies were deleted from the platform; the one kept is the delivery's post. */
  | { action: 'delete_extras'; externalId: string; url: string | null; deleted: string[] }
  | { action: 'publish' }
  | { action: 'cancel' };

const REASONS: Record<ReviewResolution['action'], string> = {
  live: 'an admin confirmed it is live',
  delete_extras: 'an admin deleted the extra copies: one copy is live',
  publish: 'an admin checked it is not live: publish now',
  cancel: 'canceled by an admin',
};

/**
 * An admin's decision, as one conditional statement: it applies only while the delivery is still in a
 * state that allows it (a repeated or late submit changes nothing), releases the claim so "publish now"
 * goes through the normal claim path, and writes the history and the audit record.
 */
export async function resolveReviewItem(
  db: Executor,
  params: { workspaceId: string; deliveryId: string; actorUserId: string; resolution: ReviewResolution },
) {
  const r = params.resolution;
  const live = r.action === 'live' || r.action === 'delete_extras';
  const to = live ? 'sent' : r.action === 'publish' ? 'scheduled' : 'canceled';
  const from = r.action === 'live' ? ['ambiguous', 'needs_review'] : ['needs_review'];
  const result = await db.execute(sql`
    with target as (
      select d.id, d.workspace_id, d.status from deliveries d
      where d.id = ${params.deliveryId} and d.workspace_id = ${params.workspaceId}
        and d.status in (select jsonb_array_elements_text(${jsonb(from)})::delivery_status)
      for update
    ), updated as (
      update deliveries d set status = ${to}::delivery_status,
        external_id = ${live ? r.externalId : null}::text,
        external_url = ${live ? r.url : null}::text,
        due_at = now(), settled_at = case when ${to} in ('sent', 'canceled') then now() else null end, updated_at = now()
      from target where d.id = target.id
      returning d.id
    ), claim as (
      update claims c set released_at = now(), lease_expires_at = now() from target where c.delivery_id = target.id and c.released_at is null
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select workspace_id, id, status, ${to}::delivery_status, ${`user:${params.actorUserId}`},
        ${REASONS[r.action]},
        ${jsonb(r)}
      from target
    ), audit as (
      insert into audit_log (workspace_id, actor_user_id, action, target_type, target_id, detail)
      select workspace_id, ${params.actorUserId}::uuid, ${`review.${r.action}`}, 'delivery', id::text, ${jsonb(r)} from target
    )
    select (select count(*) from updated)::int as n, (select status from deliveries where id = ${params.deliveryId} and workspace_id = ${params.workspaceId}) as current`);
  const row = [...result][0] as { n: number; current: string | null };
  return { applied: Number(row.n) === 1, currentStatus: row.current };
}
