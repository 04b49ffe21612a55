import { htmlToText } from '@/lib/reconcile/normalise';
import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxPage, InboxReader, InboxReadInput, OwnMessage } from '../inbox-types';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import { MASTODON_RULES } from './classifier';

// What people say to a Mastodon account (docs/inbox.md#mastodon): `mention` notifications (a reply, a mention and a
// direct message are each a status that mentions the account) read forward with min_id, and the account's own
// statuses, whose replies and direct messages mark what it answered from anywhere. Each read is one call.

const NOTIFICATIONS_PAGE = 80;
const STATUSES_PAGE = 40;

/** A direct status's other party: the acct it mentions first (Mastodon's `mentions`, else its text's leading @acct). */
function dmParty(status: Record<string, unknown>): string | null {
  const mentions = Array.isArray(status.mentions) ? status.mentions.map(asRecord) : [];
  const first = asString(mentions[0]?.acct);
  if (first) return first;
  return /^@([\w.-]+(?:@[\w.-]+)?)/.exec(htmlToText(String(status.content ?? '')).trim())?.[1] ?? null;
}

export function createMastodonInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };

  /**
   * One page of a newest-first listing. A first pass pages back (`max_id`) to the first read's start, keeping the
   * newest id; every later pass reads forward from it (`min_id`: the page just after it). Cursor: the pass's state.
   */
  async function page(
    path: string,
    limit: number,
    query: URLSearchParams,
    input: InboxReadInput,
  ): Promise<{ entries: Record<string, unknown>[]; cursor: string; more: boolean }> {
    const pass = (input.cursor ? JSON.parse(input.cursor) : {}) as { since?: string; back?: string; top?: string };
    query.set('limit', String(limit));
    if (pass.since) query.set('min_id', pass.since);
    else if (pass.back) query.set('max_id', pass.back);
    const { body } = await readJson(
      {
        url: `${base}${path}?${query}`,
        headers: auth,
        outbound: account.outbound,
        timeoutMs: input.timeoutMs,
        signal: input.signal,
      },
      MASTODON_RULES,
      send,
    );
    const all = (Array.isArray(body) ? body : []).map(asRecord).filter((e) => asString(e.id));
    const newest = all.reduce<string | undefined>(
      (top, e) => (top === undefined || BigInt(String(e.id)) > BigInt(top) ? String(e.id) : top),
      undefined,
    );
    if (pass.since) {
      const since = newest && BigInt(newest) > BigInt(pass.since) ? newest : pass.since;
      return { entries: all, cursor: JSON.stringify({ since }), more: all.length === limit };
    }
    const entries = all.filter((e) => new Date(String(e.created_at)) >= input.since);
    const top = pass.top ?? newest;
    const more = all.length === limit && entries.length === all.length;
    const cursor = more ? { back: String(all.at(-1)!.id), top } : top ? { since: top } : {};
    return { entries, cursor: JSON.stringify(cursor), more };
  }

  const notifications = {
    name: 'notifications',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const read = await page(
        '/api/v1/notifications',
        NOTIFICATIONS_PAGE,
        new URLSearchParams([['types[]', 'mention']]),
        input,
      );
      const items: InboundItem[] = [];
      for (const n of read.entries) {
        const status = asRecord(n.status);
        const author = asRecord(n.account);
        const id = asString(status.id);
        const createdAt = new Date(String(status.created_at ?? n.created_at));
        if (n.type !== 'mention' || !id) continue;
        const acct = asString(author.acct) ?? String(author.id ?? '');
        const direct = status.visibility === 'direct';
        const inReplyTo = asString(status.in_reply_to_id) ?? null;
        items.push({
          platformId: id,
          kind: direct ? 'dm' : inReplyTo ? 'reply' : 'mention',
          author: { id: asString(author.id) ?? null, handle: `@${acct}`, name: asString(author.display_name) ?? null },
          text: htmlToText(String(status.content ?? '')).trim(),
          createdAt,
          url: asString(status.url) ?? null,
          inReplyTo: direct ? null : inReplyTo,
          conversationId: direct ? acct : null,
          media: (Array.isArray(status.media_attachments) ? status.media_attachments : [])
            .map(asRecord)
            .flatMap((m) => {
              const url = asString(m.url) ?? asString(m.preview_url);
              return url ? [{ type: String(m.type ?? 'image'), url }] : [];
            }),
        });
      }
      return { items, own: [], cursor: read.cursor, more: read.more };
    },
  };

  /** The account's own statuses: its replies and direct messages mark what it answered (from any app). */
  const answers = {
    name: 'answers',
    async read(input: InboxReadInput): Promise<InboxPage> {
      const read = await page(
        `/api/v1/accounts/${encodeURIComponent(account.platformUserId)}/statuses`,
        STATUSES_PAGE,
        new URLSearchParams(),
        input,
      );
      const own = read.entries.flatMap((s): OwnMessage[] => {
        const createdAt = new Date(String(s.created_at));
        const direct = s.visibility === 'direct';
        const inReplyTo = asString(s.in_reply_to_id) ?? null;
        const conversationId = direct ? dmParty(s) : null;
        const text = htmlToText(String(s.content ?? '')).trim();
        return inReplyTo || conversationId
          ? [{ platformId: String(s.id), inReplyTo, conversationId, createdAt, text }]
          : [];
      });
      return { items: [], own, cursor: read.cursor, more: read.more };
    },
  };

  return { streams: [notifications, answers] };
}
