import type { Executor } from '../../client';
import { deliveries, deliveryEvents } from '../../schema';

/** New deliveries (one per account, or for a thread one per account and part) and their first history row. */
export async function addDeliveries(
  db: Executor,
  params: {
    workspaceId: string;
    postId: string;
    accountIds: string[];
    /** The thread parts to add, by position (default: part 0 only, as for every post that is not a thread). */
    parts?: number[];
    dueAt: Date;
    /** `draft`: saved without scheduling, never claimed until scheduled (default `scheduled`). */
    status?: 'scheduled' | 'draft' | 'awaiting_approval';
    actor: string;
    reason: string;
    detail?: Record<string, unknown>;
  },
) {
  const parts = params.parts ?? [0];
  if (params.accountIds.length === 0 || parts.length === 0) return [];
  const rows = await db
    .insert(deliveries)
    .values(
      params.accountIds.flatMap((accountId) =>
        parts.map((part) => ({
          workspaceId: params.workspaceId,
          postId: params.postId,
          accountId,
          part,
          dueAt: params.dueAt,
          status: params.status ?? 'scheduled',
        })),
      ),
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
