import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveries, notificationReads, notifications } from '../schema';

/** Read state is the viewing user's own (notification_reads), never the workspace's. */
/** A notification for every member (user_id null) or for this one (an approval decision tells the author). */
const visibleTo = (userId: string) => sql`(${notifications.userId} is null or ${notifications.userId} = ${userId})`;

const readByUser = (userId: string) =>
  sql<boolean>`exists (select 1 from ${notificationReads} r where r.notification_id = ${notifications.id} and r.user_id = ${userId})`;

export async function listNotifications(db: Executor, params: { workspaceId: string; userId: string; limit?: number }) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      message: notifications.message,
      read: readByUser(params.userId),
      createdAt: notifications.createdAt,
      deliveryId: notifications.deliveryId,
      postId: sql<string | null>`coalesce(${deliveries.postId}, ${notifications.postId})`,
    })
    .from(notifications)
    .leftJoin(deliveries, eq(deliveries.id, notifications.deliveryId))
    .where(and(eq(notifications.workspaceId, params.workspaceId), visibleTo(params.userId)))
    .orderBy(desc(notifications.createdAt))
    .limit(params.limit ?? 10);
}

export async function countUnreadNotifications(db: Executor, params: { workspaceId: string; userId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.workspaceId, params.workspaceId),
        visibleTo(params.userId),
        sql`not ${readByUser(params.userId)}`,
      ),
    );
  return row?.n ?? 0;
}

/** Marks the workspace's notifications read for this user only; repeating it (or racing it) adds nothing. */
export async function markNotificationsRead(db: Executor, params: { workspaceId: string; userId: string }) {
  await db.execute(sql`
    insert into ${notificationReads} (notification_id, user_id)
    select n.id, ${params.userId}::uuid from ${notifications} n where n.workspace_id = ${params.workspaceId}
      and (n.user_id is null or n.user_id = ${params.userId})
    on conflict do nothing`);
}
