import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxReader, OwnMessage } from '../inbox-types';
import { perPostStream } from '../inbox-per-post';
import { graphInboxGet, graphTime } from '../meta-graph/inbox';
import { FACEBOOK_NETWORK } from '../meta-graph/network';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { FACEBOOK_RULES } from './classifier';

// What people say to a Facebook Page (docs/inbox.md#networks): the comments on each of its posts of the last 14 days
// (GET /{post-id}/comments, newest first, pages_read_user_content); the page's own comments (its id as `from.id`) mark
// what they answer. Messenger conversations need the Messenger Platform: not read.

export function createFacebookInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const get = graphInboxGet(FACEBOOK_NETWORK, FACEBOOK_RULES, account, send);
  const comments = perPostStream('comments', async (postId, input, after) => {
    const page = await get(
      `/${encodeURIComponent(postId)}/comments`,
      {
        fields: 'id,message,created_time,from,parent',
        // Every level (the default is top-level comments only): the page's own replies under comments among them.
        filter: 'stream',
        order: 'reverse_chronological',
        limit: '50',
        after,
      },
      input,
    );
    const items: InboundItem[] = [];
    const own: OwnMessage[] = [];
    for (const c of page.data.filter((c) => asString(c.id))) {
      const from = asRecord(c.from);
      const inReplyTo = asString(asRecord(c.parent).id) ?? postId;
      const createdAt = graphTime(c.created_time);
      if (asString(from.id) === account.platformUserId) {
        own.push({
          platformId: String(c.id),
          inReplyTo,
          conversationId: null,
          createdAt,
          text: asString(c.message) ?? null,
        });
        continue;
      }
      const name = asString(from.name) ?? 'Someone';
      items.push({
        platformId: String(c.id),
        kind: 'comment',
        author: { id: asString(from.id) ?? null, handle: name, name },
        text: String(c.message ?? ''),
        createdAt,
        url: null,
        inReplyTo,
        conversationId: postId,
        media: [],
      });
    }
    // Graph names a next page only where there is one (`paging.next`); its `after` cursor reads it.
    return { items, own, next: page.next ? page.after : null };
  });
  return { streams: [comments] };
}
