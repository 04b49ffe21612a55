import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';

/**
 * Cancels the post's deliveries that are still `scheduled` and not claimed, still drafts (a draft is
 * discarded) or awaiting approval — one conditional statement, so it cannot race the publisher into "canceled but published".
 * Their posting slots are freed in the same statement. Returns the canceled ids.
 * A thread is canceled per account as a whole, and only while its first part is still scheduled (or a draft)
 * and unclaimed: never the rest of a thread whose start may be published. The first parts are locked
 * (the publisher claims with SKIP LOCKED), so no part can be claimed while the statement runs.
 */
export async function cancelScheduledDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; actor: string },
) {
  const rows = await db.execute<{ delivery_id: string }>(sql`
    with heads as (
      select d.account_id from deliveries d
      where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId} and d.part = 0
        and d.status in ('scheduled', 'draft', 'awaiting_approval')
        and not exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null)
      for update of d
    ), target as (
      select d.id, d.status from deliveries d
      join heads h on h.account_id = d.account_id
      where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId} and d.status in ('scheduled', 'draft', 'awaiting_approval')
        and not exists (select 1 from claims c where c.delivery_id = d.id and c.released_at is null)
      for update of d
    ), canceled as (
      update deliveries d set status = 'canceled', settled_at = now(), updated_at = now()
      from target where d.id = target.id
      returning d.id, d.workspace_id, d.post_id, d.account_id, target.status as from_status
    ), released as (
      delete from slot_reservations r using canceled c where r.post_id = c.post_id and r.account_id = c.account_id
    )
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, from_status, 'canceled', ${params.actor},
      case when from_status = 'draft' then 'draft discarded' else 'canceled by request' end from canceled
    returning delivery_id`);
  return [...rows].map((r) => r.delivery_id);
}
