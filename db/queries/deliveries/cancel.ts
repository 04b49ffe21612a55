import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { deliveries, deliveryEvents } from '../../schema';

/**
 * Cancels the post's deliveries that are still `scheduled` and not claimed — one conditional
 * statement, so it cannot race the publisher into "canceled but published". Returns the canceled ids.
 */
export async function cancelScheduledDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; actor: string },
) {
  const rows = await db.execute<{ delivery_id: string }>(sql`
    with canceled as (
      update ${deliveries} set status = 'canceled', settled_at = now(), updated_at = now()
      where post_id = ${params.postId} and workspace_id = ${params.workspaceId} and status = 'scheduled'
        and not exists (select 1 from claims c where c.delivery_id = deliveries.id and c.released_at is null)
      returning id, workspace_id
    )
    insert into ${deliveryEvents} (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, 'scheduled', 'canceled', ${params.actor}, 'canceled by request' from canceled
    returning delivery_id`);
  return [...rows].map((r) => r.delivery_id);
}
