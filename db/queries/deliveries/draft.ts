import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';

/**
 * Schedules a post's drafts: draft → scheduled at `dueAt`, with history rows, in the caller's transaction (the
 * keyed edit that locked them). From here they are ordinary scheduled deliveries, claimed when due.
 */
export async function scheduleDraftDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; dueAt: Date; actor: string },
) {
  const result = await db.execute<{ id: string }>(sql`
    with scheduled as (
      update deliveries d set status = 'scheduled', due_at = ${params.dueAt.toISOString()}::timestamptz, updated_at = now()
      where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId} and d.status = 'draft'
      returning d.id, d.workspace_id
    )
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, 'draft', 'scheduled', ${params.actor}, 'draft scheduled' from scheduled
    returning delivery_id as id`);
  return [...result].map((r) => r.id);
}
