import { XMLParser } from 'fast-xml-parser';
import type { IncomingPlatformEvent } from '@/db/queries/platform-events';
import { asRecord, asString } from '@/lib/providers/read';

/**
 * YouTube's push notifications (developers.google.com/youtube/v3/guides/push_notifications): a WebSub (PubSubHubbub)
 * hub posts the channel's Atom feed, `<feed><entry><yt:videoId/><yt:channelId/><title/><published/><updated/></entry>`,
 * when a video is uploaded or its title or description changes, and `<at:deleted-entry ref="yt:video:ID">` when it is
 * deleted. An event is known by the video, the kind and the entry's `updated` (or the deletion's `when`): a redelivery
 * is the same event, a later change another. The channel is the account; the video is the post it concerns.
 */
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', processEntities: true });

export function parseAtom(body: Uint8Array): unknown | null {
  try {
    const parsed = parser.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    return parsed.feed ? parsed : null;
  } catch {
    return null;
  }
}

const list = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

export function youtubeFeedEvents(
  body: unknown,
  target: Pick<IncomingPlatformEvent, 'provider' | 'sandbox'>,
): IncomingPlatformEvent[] | null {
  const feed = asRecord(asRecord(body).feed);
  if (!('entry' in feed) && !('at:deleted-entry' in feed)) return null;
  const events: IncomingPlatformEvent[] = [];
  for (const raw of list(feed.entry)) {
    const entry = asRecord(raw);
    const videoId = text(entry['yt:videoId']);
    const channelId = text(entry['yt:channelId']);
    if (!videoId || !channelId) continue;
    const updated = text(entry.updated) ?? text(entry.published) ?? '';
    events.push({
      ...target,
      eventKey: `video:${videoId}:${updated}`,
      kind: 'video',
      platformUserId: channelId,
      objectId: videoId,
      payload: {
        videoId,
        channelId,
        title: text(entry.title) ?? null,
        published: text(entry.published) ?? null,
        updated: updated || null,
        link: asString(asRecord(list(entry.link)[0])['@_href']) ?? null,
      },
    });
  }
  for (const raw of list(feed['at:deleted-entry'])) {
    const deleted = asRecord(raw);
    const videoId = /^yt:video:(.+)$/.exec(asString(deleted['@_ref']) ?? '')?.[1];
    // The channel is named by its URL in <at:by><uri>…/channel/UC…</uri></at:by>.
    const channelId = /\/channel\/([\w-]+)$/.exec(text(asRecord(deleted['at:by']).uri) ?? '')?.[1] ?? null;
    if (!videoId) continue;
    const when = asString(deleted['@_when']) ?? '';
    events.push({
      ...target,
      eventKey: `deleted:${videoId}:${when}`,
      kind: 'deleted',
      platformUserId: channelId,
      objectId: videoId,
      payload: { videoId, channelId, deletedAt: when || null },
    });
  }
  return events;
}

/** A channel's feed, the only topic this app subscribes to: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=…`. */
export function isYoutubeChannelTopic(topic: string | null): boolean {
  if (!topic) return false;
  try {
    const url = new URL(topic);
    return (
      url.origin === 'https://www.youtube.com' &&
      url.pathname === '/xml/feeds/videos.xml' &&
      /^UC[\w-]{22}$/.test(url.searchParams.get('channel_id') ?? '')
    );
  } catch {
    return false;
  }
}
