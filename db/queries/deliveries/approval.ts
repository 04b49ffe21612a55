import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';
import { latenessDeadline } from './lateness';

/**
 * Sends a post's open deliveries (scheduled, or drafts being scheduled) to `awaiting_approval` at `dueAt`, with
 * history rows, in the caller's transaction (the edit or create that locked them). From there the claim never
 * picks them up (it takes `scheduled` only) until an approval moves them back.
 */
export async function requestApprovalForDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; dueAt: Date; actor: string; from: ('scheduled' | 'draft')[] },
) {
  if (params.from.length === 0) return [];
  const result = await db.execute<{ id: string }>(sql`
    with moved as (
      update deliveries d set status = 'awaiting_approval', due_at = ${params.dueAt.toISOString()}::timestamptz, updated_at = now()
      from (select id, status from deliveries where post_id = ${params.postId} and workspace_id = ${params.workspaceId}
              and status::text = any(${sql.param(params.from)}::text[])
              and not exists (select 1 from claims c where c.delivery_id = deliveries.id and c.released_at is null)
            for update) old
      where d.id = old.id
      returning d.id, d.workspace_id, old.status as from_status
    )
    insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason)
    select workspace_id, id, from_status, 'awaiting_approval', ${params.actor},
      case when from_status = 'scheduled' then 'edited: needs approval again' else 'needs approval' end from moved
    returning delivery_id as id`);
  return [...result].map((r) => r.id);
}

/**
 * An approval: the post's deliveries awaiting approval become `scheduled` (claimed when due, at once if the time
 * has passed), or `missed` with the reason when the approval came after the workspace lateness limit — a post
 * is never published later than the limit, approval or not. In the deciding transaction, which holds their locks.
 */
export async function approveAwaitingDeliveries(
  db: Executor,
  params: { workspaceId: string; postId: string; actor: string; detail: Record<string, unknown> },
) {
  const result = await db.execute<{ id: string; status: 'scheduled' | 'missed' }>(sql`
    with target as (
      select d.id, d.workspace_id, ${latenessDeadline} < now() as late from deliveries d
      join posts p on p.id = d.post_id
      join workspaces w on w.id = d.workspace_id
      where d.post_id = ${params.postId} and d.workspace_id = ${params.workspaceId} and d.status = 'awaiting_approval'
      for update of d
    ), moved as (
      update deliveries d set
        status = (case when t.late then 'missed' else 'scheduled' end)::delivery_status,
        settled_at = case when t.late then now() end,
        failure_reason = case when t.late then 'Approved after the workspace lateness limit had passed' end,
        updated_at = now()
      from target t where d.id = t.id
      returning d.id, d.workspace_id, d.status
    ), events as (
      insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason, detail)
      select workspace_id, id, 'awaiting_approval', status, ${params.actor},
        case when status = 'missed' then 'approved after the workspace lateness limit: not published late' else 'approved' end,
        ${JSON.stringify(params.detail)}::jsonb
      from moved
    )
    select id, status::text as status from moved`);
  return [...result];
}
