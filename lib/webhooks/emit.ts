import type { Executor } from '@/db/client';
import type { WebhookEventType } from '@/db/schema';
import { insertWebhookEvent } from '@/db/queries/webhooks';

/**
 * Emits an event in the caller's transaction, so it exists exactly when the change it reports commits (an
 * outbox). Delivery status events are emitted by a database trigger; other features (approvals) call this:
 * `emitWebhookEvent(tx, { workspaceId, type: 'post.approved', subject: \`post:${id}\`, data: { postId: id } })`.
 * Nothing is written when no enabled endpoint subscribes to the type. Returns the event id (the `webhook-id`).
 */
export function emitWebhookEvent(
  tx: Executor,
  event: { workspaceId: string; type: WebhookEventType; subject: string; data: Record<string, unknown> },
): Promise<string | null> {
  return insertWebhookEvent(tx, event);
}
