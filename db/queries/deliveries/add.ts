import type { Executor } from '../../client';
import { deliveries, deliveryEvents } from '../../schema';

/** New deliveries (one per account) and their first history row. */
export async function addDeliveries(
  db: Executor,
  params: {
    workspaceId: string;
    postId: string;
    accountIds: string[];
    dueAt: Date;
    /** `draft`: saved without scheduling, never claimed until scheduled (default `scheduled`). */
    status?: 'scheduled' | 'draft';
    actor: string;
    reason: string;
    detail?: Record<string, unknown>;
  },
) {
  if (params.accountIds.length === 0) return [];
  const rows = await db
    .insert(deliveries)
    .values(
      params.accountIds.map((accountId) => ({
        workspaceId: params.workspaceId,
        postId: params.postId,
        accountId,
        dueAt: params.dueAt,
        status: params.status ?? 'scheduled',
      })),
    )
    .returning();
  await db.insert(deliveryEvents).values(
    rows.map((r) => ({
      workspaceId: params.workspaceId,
      deliveryId: r.id,
      fromStatus: null,
      toStatus: params.status ?? 'scheduled',
      actor: params.actor,
      reason: params.reason,
      detail: params.detail ?? null,
    })),
  );
  return rows;
}
