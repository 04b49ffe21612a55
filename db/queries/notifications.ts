import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { deliveries, notifications } from '../schema';

export async function listNotifications(db: Executor, params: { workspaceId: string; limit?: number }) {
  return db
    .select({ id: notifications.id, kind: notifications.kind, message: notifications.message, readAt: notifications.readAt, createdAt: notifications.createdAt, deliveryId: notifications.deliveryId, postId: deliveries.postId })
    .from(notifications)
    .leftJoin(deliveries, eq(deliveries.id, notifications.deliveryId))
    .where(eq(notifications.workspaceId, params.workspaceId))
    .orderBy(desc(notifications.createdAt))
    .limit(params.limit ?? 10);
}

export async function countUnreadNotifications(db: Executor, params: { workspaceId: string }) {
  const [row] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.workspaceId, params.workspaceId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function markNotificationsRead(db: Executor, params: { workspaceId: string }) {
  await db.update(notifications).set({ readAt: sql`now()` }).where(and(eq(notifications.workspaceId, params.workspaceId), isNull(notifications.readAt)));
}
