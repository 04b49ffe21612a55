import { createHash } from 'node:crypto';
import { asRecord, asString } from '@/lib/providers/read';
import type { IncomingPlatformEvent } from '@/db/queries/platform-events';

/**
 * Meta's webhook body (Instagram, Facebook Pages): `{ object, entry: [{ id, time, changes: [{ field, value }] }] }`
 * (developers.facebook.com/docs/graph-api/webhooks/getting-started#event-notifications). Meta names no event id:
 * an event is known by its field and the id of the object it carries (a comment's id, a post's id with its verb),
 * else by the hash of its change — so a redelivery of the same change is the same event. `entry.id` is the account
 * (the professional account or the Page); `objectId` is the post it concerns.
 */
export function metaEvents(
  body: unknown,
  target: Pick<IncomingPlatformEvent, 'provider' | 'sandbox'>,
): IncomingPlatformEvent[] | null {
  const root = asRecord(body);
  if (!Array.isArray(root.entry)) return null;
  const events: IncomingPlatformEvent[] = [];
  for (const rawEntry of root.entry) {
    const entry = asRecord(rawEntry);
    const account = entry.id === undefined ? null : String(entry.id);
    for (const rawChange of Array.isArray(entry.changes) ? entry.changes : []) {
      const change = asRecord(rawChange);
      const field = asString(change.field);
      if (!field) continue;
      const value = asRecord(change.value);
      const own = asString(value.id) ?? asString(value.comment_id);
      // The post it concerns: a comment's media (Instagram), a feed change's post (Facebook).
      const objectId =
        asString(asRecord(value.media).id) ?? asString(value.post_id) ?? asString(value.media_id) ?? null;
      const verb = asString(value.verb);
      const key = own
        ? `${field}:${own}${verb ? `:${verb}` : ''}`
        : `${field}:${createHash('sha256')
            .update(JSON.stringify([account, change]))
            .digest('hex')}`;
      events.push({
        ...target,
        eventKey: key,
        kind: field,
        platformUserId: account,
        objectId,
        payload: { object: root.object ?? null, entryId: account, time: entry.time ?? null, change },
      });
    }
  }
  return events;
}
