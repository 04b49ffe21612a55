import type { Database } from '@/db/client';
import { resolveReviewItem } from '@/db/queries/deliveries';
import { getCopiesUnderReview } from '@/db/queries/review';
import { providerClientForAccount } from '@/lib/providers';

export type DeleteExtrasResult =
  | { ok: true; applied: boolean; kept: string; deleted: string[]; currentStatus: string | null }
  | { ok: false; status: 404 | 409 | 502; message: string; deleted: string[] };

/**
 * "Delete the extra copies" (docs/architecture.md#extra-copies): keeps the oldest copy the last check found and deletes the
 * others on the platform, then marks the delivery sent with the kept copy. Safe to repeat or race: a
 * copy already gone counts as deleted, and the status change applies once (needs_review only).
 */
export async function deleteExtraCopies(
  db: Database,
  params: { workspaceId: string; deliveryId: string; actorUserId: string; encryptionKey: string; origin?: string },
): Promise<DeleteExtrasResult> {
  const review = await getCopiesUnderReview(db, params);
  if (!review) return { ok: false, status: 404, message: 'No such delivery in this workspace.', deleted: [] };
  const [kept, ...extras] = review.copies;
  if (review.status !== 'needs_review' || !kept || extras.length === 0) {
    return { ok: false, status: 409, message: 'There are no extra copies to delete for this delivery.', deleted: [] };
  }
  if (review.accountDisconnected) {
    return {
      ok: false,
      status: 409,
      message: 'The account is disconnected: reconnect it first, then delete the extra copies.',
      deleted: [],
    };
  }
  const client = providerClientForAccount(
    { ...review, id: review.accountId },
    { encryptionKey: params.encryptionKey, origin: params.origin },
  );
  const deleted: string[] = [];
  for (const copy of extras) {
    const result = await client.deletePost(copy.id, { timeoutMs: 10_000 });
    if (!result.ok)
      return { ok: false, status: 502, message: `Copy ${copy.id} could not be deleted: ${result.reason}`, deleted };
    deleted.push(copy.id);
  }
  const resolved = await resolveReviewItem(db, {
    workspaceId: params.workspaceId,
    deliveryId: params.deliveryId,
    actorUserId: params.actorUserId,
    resolution: { action: 'delete_extras', externalId: kept.id, url: kept.url, deleted },
  });
  return { ok: true, applied: resolved.applied, kept: kept.id, deleted, currentStatus: resolved.currentStatus };
}
