import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxPage, InboxReader, InboxReadInput, OwnMessage } from '../inbox-types';
import { asRecord, asString, readJson } from '../read';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '../transport';
import { POST_COLLECTION } from './at-uri';
import { BLUESKY_RULES } from './classifier';
import { openRepo } from './repo';

// What people say to a Bluesky account (docs/inbox.md#bluesky): its notifications of replies, mentions and quotes
// (app.bsky.notification.listNotifications, served by the AppView through the PDS), newest first, read down to the
// newest one already seen; and its own records (com.atproto.repo.listRecords), whose replies mark what it answered
// from any app. Direct messages live in a separate chat service an app password may not reach: not read.

const NOTIFICATIONS_PAGE = 50;
const RECORDS_PAGE = 100;

type Pass = { seen?: string; token?: string; top?: string };

export function createBlueskyInboxReader(account: ResolvedAccount, send: ProviderTransport = sendOnce): InboxReader {
  const repo = openRepo(account, send);
  const get = async (nsid: string, params: [string, string][], input: InboxReadInput) =>
    asRecord(
      (
        await readJson(
          {
            url: `${repo.xrpc(nsid)}?${new URLSearchParams(params)}`,
            headers: repo.auth,
            outbound: repo.outbound,
            timeoutMs: input.timeoutMs,
            signal: input.signal,
          },
          BLUESKY_RULES,
          send,
        )
      ).body,
    );

  const notifications = {
    name: 'notifications',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const pass = (input.cursor ? JSON.parse(input.cursor) : {}) as Pass;
      const params: [string, string][] = [
        ['reasons', 'reply'],
        ['reasons', 'mention'],
        ['reasons', 'quote'],
        ['limit', String(NOTIFICATIONS_PAGE)],
      ];
      if (pass.token) params.push(['cursor', pass.token]);
      const body = await get('app.bsky.notification.listNotifications', params, input);
      const all = (Array.isArray(body.notifications) ? body.notifications : []).map(asRecord);
      const fresh = all.filter((n) => {
        const at = String(n.indexedAt ?? '');
        return pass.seen ? at > pass.seen : new Date(at) >= input.since;
      });
      const items = fresh.flatMap((n): InboundItem[] => {
        const uri = asString(n.uri);
        const record = asRecord(n.record);
        const author = asRecord(n.author);
        if (!uri || !['reply', 'mention', 'quote'].includes(String(n.reason))) return [];
        const reply = asRecord(record.reply);
        const parent = n.reason === 'reply' ? (asString(asRecord(reply.parent).uri) ?? null) : null;
        return [
          {
            platformId: uri,
            kind: parent ? 'reply' : 'mention',
            author: {
              id: asString(author.did) ?? null,
              handle: `@${asString(author.handle) ?? String(author.did ?? '')}`,
              name: asString(author.displayName) ?? null,
            },
            text: String(record.text ?? ''),
            createdAt: new Date(String(record.createdAt ?? n.indexedAt)),
            url: repo.postUrl(uri) ?? null,
            inReplyTo: parent,
            conversationId: asString(asRecord(reply.root).uri) ?? null,
            media: [],
          },
        ];
      });
      const top = pass.top ?? asString(all[0]?.indexedAt);
      const next = asString(body.cursor);
      const more = !!next && fresh.length === all.length;
      const cursor: Pass = more ? { seen: pass.seen, token: next, top } : { seen: top ?? pass.seen };
      return { items, own: [], cursor: JSON.stringify(cursor), more };
    },
  };

  /** The account's newest records: its replies mark what it answered (kept once each, so one page a run is enough). */
  const answers = {
    name: 'answers',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const body = await get(
        'com.atproto.repo.listRecords',
        [
          ['repo', repo.did],
          ['collection', POST_COLLECTION],
          ['limit', String(RECORDS_PAGE)],
        ],
        input,
      );
      const own = (Array.isArray(body.records) ? body.records : []).map(asRecord).flatMap((r): OwnMessage[] => {
        const value = asRecord(r.value);
        const parent = asString(asRecord(asRecord(value.reply).parent).uri);
        const uri = asString(r.uri);
        return parent && uri
          ? [
              {
                platformId: uri,
                inReplyTo: parent,
                conversationId: null,
                createdAt: new Date(String(value.createdAt)),
                text: asString(value.text) ?? null,
              },
            ]
          : [];
      });
      return { items: [], own, cursor: null, more: false };
    },
  };

  return { streams: [notifications, answers] };
}
