import { getEnv } from '@/lib/env';
import { sendOnce } from '@/lib/net/send';
import type { ResolvedAccount } from '../definition';
import type { InboundItem, InboxReader, OwnMessage } from '../inbox-types';
import { perPostStream } from '../inbox-per-post';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { linkedinApi } from './api';

// What people say to a LinkedIn page (docs/inbox.md#networks): the comments on each of its posts of the last 14 days
// (Community Management, Comments API: GET /rest/socialActions/{share URN}/comments, r_organization_social), newest
// first. The list has no replies under a comment (each comment's are another call): a page's answer given on LinkedIn
// is not seen, and only an own comment naming a `parentComment` would mark one. A member's posts and messages are not
// readable by an app (r_member_social is granted to few).

const PAGE = 50;

export function createLinkedinInboxReader(account: ResolvedAccount, send?: ProviderTransport): InboxReader {
  const api = linkedinApi(account, send ?? sendOnce, { version: getEnv().LINKEDIN_API_VERSION });
  const comments = perPostStream('comments', async (urn, input, after) => {
    const start = Number(after ?? 0) || 0;
    const { body } = await api.getRest(
      `${api.base}/rest/socialActions/${encodeURIComponent(urn)}/comments?start=${start}&count=${PAGE}`,
      { timeoutMs: input.timeoutMs, signal: input.signal },
    );
    const items: InboundItem[] = [];
    const own: OwnMessage[] = [];
    const elements = (Array.isArray(asRecord(body).elements) ? (asRecord(body).elements as unknown[]) : []).map(
      asRecord,
    );
    for (const c of elements) {
      const id = asString(c.commentUrn) ?? asString(c.$URN);
      if (!id) continue;
      const createdAt = new Date(Number(asRecord(c.created).time));
      // A top-level comment's `object` is the post's activity, another URN than the share ours is stored under.
      const inReplyTo = asString(c.parentComment) ?? urn;
      const actor = asString(c.actor) ?? 'unknown';
      if (actor === account.platformUserId) {
        own.push({
          platformId: id,
          inReplyTo,
          conversationId: null,
          createdAt,
          text: asString(asRecord(c.message).text) ?? null,
        });
        continue;
      }
      items.push({
        platformId: id,
        kind: 'comment',
        author: { id: actor, handle: actor, name: null },
        text: String(asRecord(c.message).text ?? ''),
        createdAt,
        url: null,
        inReplyTo,
        conversationId: urn,
        media: [],
      });
    }
    // `start`/`count` paging: more while `paging.total` says so (a full page where it is not given).
    const total = asRecord(asRecord(body).paging).total;
    const more = typeof total === 'number' ? start + elements.length < total : elements.length === PAGE;
    return { items, own, next: more && elements.length > 0 ? String(start + elements.length) : null };
  });
  return { streams: [comments] };
}
