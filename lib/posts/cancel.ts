import type { Executor } from '@/db/client';
import { cancelScheduledDeliveries } from '@/db/queries/deliveries';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { isPostId } from './get';
import { serializePost, type SerializedPost } from './serialize';

export type CancelPostResult =
  /** `canceledDeliveryIds` is empty when a repeat finds nothing left to cancel (idempotent). */
  | { kind: 'ok'; post: SerializedPost; canceledDeliveryIds: string[] }
  | { kind: 'not_found' }
  /** Every delivery is already publishing or settled: nothing changed. */
  | { kind: 'conflict'; reason: 'not_cancelable'; deliveries: { id: string; accountId: string; status: string }[] };

/**
 * Cancels what is still scheduled — one conditional statement, so never a delivery already claimed
 * (the API's POST /posts/:id/cancel and the queue's Cancel button both come here).
 */
export async function cancelPost(
  db: Executor,
  params: { workspaceId: string; postId: string; actor: string },
): Promise<CancelPostResult> {
  if (!isPostId(params.postId)) return { kind: 'not_found' };
  const scope = { workspaceId: params.workspaceId, postId: params.postId };
  // Scoped by workspace, so a missing or another workspace's post cancels nothing and reads as not found (I6).
  const canceled = await cancelScheduledDeliveries(db, { ...scope, actor: params.actor });
  const after = await getPostWithDeliveries(db, scope);
  if (!after) return { kind: 'not_found' };
  const notCancelable = after.deliveries.filter((d) => d.status !== 'canceled');
  if (notCancelable.length > 0 && notCancelable.length === after.deliveries.length) {
    return {
      kind: 'conflict',
      reason: 'not_cancelable',
      deliveries: notCancelable.map((d) => ({ id: d.id, accountId: d.accountId, status: d.status })),
    };
  }
  return {
    kind: 'ok',
    post: serializePost(after.post, after.deliveries, after.parts, after.partMedia),
    canceledDeliveryIds: canceled,
  };
}
