import { createHash } from 'node:crypto';
import { asRecord, asString } from '@/lib/providers/read';
import type { IncomingPlatformEvent } from '@/db/queries/platform-events';

/** The events that report a publish's outcome (the rest are kept: no state follows from them). */
const OUTCOME_EVENTS = new Set([
  'post.publish.complete',
  'post.publish.inbox_delivered',
  'post.publish.publicly_available',
  'post.publish.failed',
]);

/**
 * TikTok's webhook body (developers.tiktok.com/doc/webhooks-events): `{ client_key, event, create_time, user_openid,
 * content }`, `content` a JSON string. The Content Posting events name the publish: `post.publish.complete`,
 * `post.publish.inbox_delivered`, `post.publish.failed` (`reason`), `post.publish.publicly_available` (`post_id`) and
 * `post.publish.no_longer_publicly_available`, each `{ publish_id, publish_type }`. TikTok names no event id, and sends
 * each of these once per publish (at least once): an event is known by its name and its publish_id, so a redelivery is
 * the same event. Any other event is known by its body's hash. `objectId` is the publish_id, kept on the delivery in
 * provider_state (`publishId`) before anything else (lib/providers/tiktok/publish.ts).
 */
export function tiktokEvents(
  body: unknown,
  target: Pick<IncomingPlatformEvent, 'provider' | 'sandbox'>,
): IncomingPlatformEvent[] | null {
  const root = asRecord(body);
  const event = asString(root.event);
  if (!event) return null;
  let content: Record<string, unknown> = {};
  try {
    content = asRecord(typeof root.content === 'string' ? JSON.parse(root.content) : root.content);
  } catch {
    content = {};
  }
  const publishId = asString(content.publish_id) ?? null;
  const key =
    event.startsWith('post.publish.') && publishId
      ? `${event}:${publishId}`
      : `${event}:${createHash('sha256').update(JSON.stringify(root)).digest('hex')}`;
  return [
    {
      ...target,
      eventKey: key,
      kind: event,
      platformUserId: asString(root.user_openid) ?? null,
      objectId: publishId,
      objectStateKey: 'publishId',
      evidence: OUTCOME_EVENTS.has(event),
      payload: { event, createTime: root.create_time ?? null, content },
    },
  ];
}
