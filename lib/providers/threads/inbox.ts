import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxPage, InboxReader, InboxReadInput, OwnMessage } from '../inbox-types';
import { perPostStream } from '../inbox-per-post';
import { graphInboxGet, graphTime } from '../meta-graph/inbox';
import { THREADS_NETWORK } from '../meta-graph/network';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { THREADS_RULES } from './classifier';

// What people say to a Threads account (docs/inbox.md#threads): GET /{user}/mentions (public posts that tag it;
// threads_manage_mentions) read forward by time, and the conversation under each recent post of ours
// (GET /{media}/conversation, every depth; threads_read_replies), where `is_reply_owned_by_me` tells our own replies:
// they mark what they answer. Threads has no direct messages in its API.

const FIELDS = 'id,text,username,permalink,timestamp,replied_to,root_post,is_reply_owned_by_me';

type Pass = { since?: number; after?: string; top?: number };

export function createThreadsInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const get = graphInboxGet(THREADS_NETWORK, THREADS_RULES, account, send);
  const user = encodeURIComponent(account.platformUserId);

  const item = (media: Record<string, unknown>, kind: 'reply' | 'mention'): InboundItem => ({
    platformId: String(media.id),
    kind,
    author: { id: null, handle: `@${asString(media.username) ?? 'unknown'}`, name: null },
    text: String(media.text ?? ''),
    createdAt: graphTime(media.timestamp),
    url: asString(media.permalink) ?? null,
    inReplyTo: kind === 'reply' ? (asString(asRecord(media.replied_to).id) ?? null) : null,
    conversationId: asString(asRecord(media.root_post).id) ?? null,
    media: [],
  });

  const mentions = {
    name: 'mentions',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const pass = (input.cursor ? JSON.parse(input.cursor) : {}) as Pass;
      // Threads' `since` is whole seconds and inclusive: a second read again is stored once all the same.
      const since = pass.since ?? Math.max(THREADS_NETWORK.epochSeconds, Math.floor(input.since.getTime() / 1000));
      const page = await get(
        `/${user}/mentions`,
        { fields: FIELDS, since: String(since), limit: '100', after: pass.after },
        input,
      );
      const times = page.data.map((m) => Math.floor(graphTime(m.timestamp).getTime() / 1000)).filter(Number.isFinite);
      const top = Math.max(pass.top ?? since, ...times);
      const more = !!page.next && !!page.after;
      const cursor: Pass = more ? { since, after: page.after, top } : { since: top };
      return {
        items: page.data.filter((m) => asString(m.id)).map((m) => item(m, 'mention')),
        own: [],
        cursor: JSON.stringify(cursor),
        more,
      };
    },
  };

  /** The account's own replies (anywhere, under a mention too): each marks what it answers. */
  const answers = {
    name: 'answers',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const pass = (input.cursor ? JSON.parse(input.cursor) : {}) as Pass;
      const since = pass.since ?? Math.max(THREADS_NETWORK.epochSeconds, Math.floor(input.since.getTime() / 1000));
      const page = await get(
        `/${user}/replies`,
        { fields: 'id,text,timestamp,replied_to', since: String(since), limit: '100', after: pass.after },
        input,
      );
      const own = page.data.flatMap((m): OwnMessage[] => {
        const parent = asString(asRecord(m.replied_to).id);
        return parent && asString(m.id)
          ? [
              {
                platformId: String(m.id),
                inReplyTo: parent,
                conversationId: null,
                createdAt: graphTime(m.timestamp),
                text: asString(m.text) ?? null,
              },
            ]
          : [];
      });
      const times = page.data.map((m) => Math.floor(graphTime(m.timestamp).getTime() / 1000)).filter(Number.isFinite);
      const top = Math.max(pass.top ?? since, ...times);
      const more = !!page.next && !!page.after;
      return {
        items: [],
        own,
        cursor: JSON.stringify(more ? { since, after: page.after, top } : { since: top }),
        more,
      };
    },
  };

  const replies = perPostStream('replies', async (postId, input, after) => {
    const page = await get(
      `/${encodeURIComponent(postId)}/conversation`,
      { fields: FIELDS, reverse: 'true', limit: '100', after },
      input,
    );
    const items: InboundItem[] = [];
    const own: OwnMessage[] = [];
    for (const media of page.data.filter((m) => asString(m.id))) {
      if (media.is_reply_owned_by_me === true)
        own.push({
          platformId: String(media.id),
          inReplyTo: asString(asRecord(media.replied_to).id) ?? null,
          conversationId: null,
          createdAt: graphTime(media.timestamp),
          text: asString(media.text) ?? null,
        });
      else items.push(item(media, 'reply'));
    }
    return { items, own, next: page.next ? page.after : null };
  });

  return { streams: [mentions, replies, answers] };
}
