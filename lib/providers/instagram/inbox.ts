import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxReader, OwnMessage } from '../inbox-types';
import { perPostStream } from '../inbox-per-post';
import { graphInboxGet, graphTime } from '../meta-graph/inbox';
import { INSTAGRAM_NETWORK } from '../meta-graph/network';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { INSTAGRAM_RULES } from './classifier';

// What people say to an Instagram professional account (docs/inbox.md#instagram): the comments on each recent media
// of ours (GET /{media}/comments, instagram_business_manage_comments), newest first, each with its replies (the
// `replies{…}` field expansion: the edge lists top-level comments only); the account's own replies (its `from.id`) mark
// what they answer. Direct messages need the Messenger Platform's Instagram API: not read.

const COMMENT_FIELDS = 'id,text,timestamp,username,from,parent_id';

export function createInstagramInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const get = graphInboxGet(INSTAGRAM_NETWORK, INSTAGRAM_RULES, account, send);
  const comments = perPostStream('comments', async (mediaId, input, after) => {
    const page = await get(
      `/${encodeURIComponent(mediaId)}/comments`,
      { fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`, limit: '50', after },
      input,
    );
    const items: InboundItem[] = [];
    const own: OwnMessage[] = [];
    // Top-level comments list without their replies: those (the account's own answers among them) come expanded.
    const all = page.data.flatMap((c) => [
      c,
      ...(Array.isArray(asRecord(c.replies).data) ? (asRecord(c.replies).data as unknown[]) : []).map(asRecord),
    ]);
    for (const c of all.filter((c) => asString(c.id))) {
      const from = asRecord(c.from);
      const inReplyTo = asString(c.parent_id) ?? mediaId;
      const createdAt = graphTime(c.timestamp);
      if (asString(from.id) === account.platformUserId) {
        own.push({
          platformId: String(c.id),
          inReplyTo,
          conversationId: null,
          createdAt,
          text: asString(c.text) ?? null,
        });
        continue;
      }
      const username = asString(c.username) ?? asString(from.username) ?? 'unknown';
      items.push({
        platformId: String(c.id),
        kind: 'comment',
        author: { id: asString(from.id) ?? null, handle: `@${username}`, name: null },
        text: String(c.text ?? ''),
        createdAt,
        url: null,
        inReplyTo,
        conversationId: mediaId,
        media: [],
      });
    }
    // Graph names a next page only where there is one (`paging.next`); its `after` cursor reads it.
    return { items, own, next: page.next ? page.after : null };
  });
  return { streams: [comments] };
}
