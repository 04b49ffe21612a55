import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxPage, InboxReader, InboxReadInput, OwnMessage } from '../inbox-types';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import { X_RULES } from './classifier';
import { expandLinks } from './client';
import { xPostUrl } from './post-url';

// What people say to an X account (docs/inbox.md#x): the mentions timeline (GET /2/users/:id/mentions: replies to the
// account mention it, so they are in it) read forward with since_id, the DM events (GET /2/dm_events) read newest
// first down to the newest one already seen, and the account's own replies (GET /2/users/:id/tweets), which mark what
// it answered from anywhere. Each read is one call; a pass over several pages keeps its pagination token in the cursor,
// so a crash mid-pass goes on where it stopped.

const PAGE = 100;

/** A pass in progress: `since` is where it started, `token` the next page, `top` the newest id the pass has seen. */
type Pass = { since?: string; token?: string; top?: string };

const parsePass = (cursor: string | null): Pass => (cursor ? (JSON.parse(cursor) as Pass) : {});

/** Ids are snowflakes: numeric order is time order. */
const newer = (a: string, b: string | undefined) => b === undefined || BigInt(a) > BigInt(b);

export function createXInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };
  const me = account.platformUserId;

  const get = async (path: string, query: URLSearchParams, input: InboxReadInput) =>
    asRecord(
      (
        await readJson(
          {
            url: `${base}${path}?${query}`,
            headers: auth,
            outbound: account.outbound,
            timeoutMs: input.timeoutMs,
            signal: input.signal,
          },
          X_RULES,
          send,
        )
      ).body,
    );

  const users = (body: Record<string, unknown>) => {
    const list = Array.isArray(asRecord(body.includes).users) ? (asRecord(body.includes).users as unknown[]) : [];
    return new Map(list.map(asRecord).map((u) => [String(u.id), u]));
  };

  /** A forward pass over a since_id timeline: `path` lists newest first, and the pass ends where `since` was. */
  async function timelinePass(
    input: InboxReadInput,
    path: string,
    fields: Record<string, string>,
    toItems: (tweets: Record<string, unknown>[], people: Map<string, Record<string, unknown>>) => Partial<InboxPage>,
  ): Promise<InboxPage> {
    const pass = parsePass(input.cursor);
    const query = new URLSearchParams({ max_results: String(PAGE), ...fields });
    if (pass.since) query.set('since_id', pass.since);
    else query.set('start_time', input.since.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    if (pass.token) query.set('pagination_token', pass.token);
    const body = await get(path, query, input);
    const meta = asRecord(body.meta);
    const tweets = (Array.isArray(body.data) ? body.data : []).map(asRecord).filter((t) => asString(t.id));
    const top = pass.top ?? asString(meta.newest_id);
    const next = asString(meta.next_token);
    const cursor: Pass = next ? { since: pass.since, token: next, top } : { since: top ?? pass.since };
    return { items: [], own: [], ...toItems(tweets, users(body)), cursor: JSON.stringify(cursor), more: !!next };
  }

  const tweetFields = {
    'tweet.fields': 'created_at,author_id,conversation_id,referenced_tweets,entities,attachments',
    expansions: 'author_id',
    'user.fields': 'username,name',
  };

  const mentions = {
    name: 'mentions',
    read: (input: InboxReadInput) =>
      timelinePass(input, `/2/users/${encodeURIComponent(me)}/mentions`, tweetFields, (tweets, people) => ({
        items: tweets.map((t): InboundItem => {
          const author = people.get(String(t.author_id)) ?? {};
          const repliedTo = Array.isArray(t.referenced_tweets)
            ? t.referenced_tweets.map(asRecord).find((r) => r.type === 'replied_to')
            : undefined;
          const username = asString(author.username) ?? String(t.author_id ?? '');
          return {
            platformId: String(t.id),
            kind: repliedTo ? 'reply' : 'mention',
            author: { id: asString(t.author_id) ?? null, handle: `@${username}`, name: asString(author.name) ?? null },
            text: expandLinks(String(t.text ?? ''), t.entities),
            createdAt: new Date(String(t.created_at)),
            url: xPostUrl(base, String(t.id), username),
            inReplyTo: asString(repliedTo?.id) ?? null,
            conversationId: asString(t.conversation_id) ?? null,
            media: [],
          };
        }),
      })),
  };

  /** The account's own replies: each marks the item it answers as answered (from any app). */
  const answers = {
    name: 'answers',
    read: (input: InboxReadInput) =>
      timelinePass(
        input,
        `/2/users/${encodeURIComponent(me)}/tweets`,
        { 'tweet.fields': 'created_at,referenced_tweets' },
        (tweets) => ({
          own: tweets.flatMap((t): OwnMessage[] => {
            const repliedTo = Array.isArray(t.referenced_tweets)
              ? t.referenced_tweets.map(asRecord).find((r) => r.type === 'replied_to')
              : undefined;
            const parent = asString(repliedTo?.id);
            return parent
              ? [
                  {
                    platformId: String(t.id),
                    inReplyTo: parent,
                    conversationId: null,
                    createdAt: new Date(String(t.created_at)),
                    text: asString(t.text) ?? null,
                  },
                ]
              : [];
          }),
        }),
      ),
  };

  /**
   * DM events, newest first: a pass reads down to the newest event of the last pass (`since`), or to the first read's
   * start; events the account sent mark the conversation answered up to then.
   */
  const dms = {
    name: 'dms',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const pass = parsePass(input.cursor);
      const query = new URLSearchParams({
        max_results: String(PAGE),
        event_types: 'MessageCreate',
        'dm_event.fields': 'id,text,created_at,sender_id,dm_conversation_id,participant_ids',
        expansions: 'sender_id',
        'user.fields': 'username,name',
      });
      if (pass.token) query.set('pagination_token', pass.token);
      const body = await get('/2/dm_events', query, input);
      const people = users(body);
      const events = (Array.isArray(body.data) ? body.data : []).map(asRecord).filter((e) => asString(e.id));
      const fresh = events.filter(
        (e) => newer(String(e.id), pass.since) && (pass.since || new Date(String(e.created_at)) >= input.since),
      );
      const items: InboundItem[] = [];
      const own: OwnMessage[] = [];
      for (const e of fresh) {
        const createdAt = new Date(String(e.created_at));
        const conversationId = asString(e.dm_conversation_id) ?? null;
        if (String(e.sender_id) === me) {
          own.push({
            platformId: String(e.id),
            inReplyTo: null,
            conversationId,
            createdAt,
            text: asString(e.text) ?? null,
          });
          continue;
        }
        const sender = people.get(String(e.sender_id)) ?? {};
        const username = asString(sender.username) ?? String(e.sender_id ?? '');
        items.push({
          platformId: String(e.id),
          kind: 'dm',
          author: { id: asString(e.sender_id) ?? null, handle: `@${username}`, name: asString(sender.name) ?? null },
          text: String(e.text ?? ''),
          createdAt,
          url: null,
          inReplyTo: null,
          conversationId,
          media: [],
        });
      }
      const top = pass.top ?? asString(events[0]?.id);
      const next = asString(asRecord(body.meta).next_token);
      // Done when the page reached what the last pass saw (or the first read's start), or there is no next page.
      const more = !!next && fresh.length === events.length;
      const cursor: Pass = more ? { since: pass.since, token: next, top } : { since: top ?? pass.since };
      return { items, own, cursor: JSON.stringify(cursor), more };
    },
  };

  return { streams: [mentions, dms, answers] };
}
