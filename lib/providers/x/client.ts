import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { deleteOnce } from '../delete-post';
import { sendOnce } from '@/lib/net/send';
import { mediaNotPosted, readMedia } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import { callBudget, callOptions } from '../call-budget';
import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { asRecord, asString, checkIdentity, readJson } from '../read';
import {
  ProviderReadError,
  type Classification,
  type ListRecentInput,
  type PostMetricsRead,
  type PostMetricsReader,
  type PublishMedia,
  type RawOutcome,
  type ProviderClient,
  type PublishInput,
  type PublishResult,
  type RecentPost,
} from '../types';
import type { ProviderTransport } from '../transport';
import { X_RULES, classifyX } from './classifier';

type XAccount = { baseUrl: string; platformUserId: string; accessToken: string; outbound?: OutboundPolicy };

const REAL_API_HOSTS = new Set(['api.x.com', 'api.twitter.com']);
const PAGE_SIZE = 100;

/**
 * X API v2 with an OAuth 2.0 user access token. X has no idempotency key: an ambiguous outcome is
 * settled only by reading the timeline (listRecent), never by calling publish again.
 */
export function createXClient(account: XAccount, send: ProviderTransport = sendOnce): ProviderClient {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };

  function postUrl(id: string): string {
    return REAL_API_HOSTS.has(new URL(base).host) ? `https://x.com/i/web/status/${id}` : `${base}/2/tweets/${id}`;
  }

  async function publish(input: PublishInput): Promise<PublishResult> {
    const startedAt = new Date();
    if (input.kind === 'reply' && !input.inReplyTo)
      return rejectedInput('A reply needs the id of the post it answers.', startedAt);
    if (input.kind === 'dm' && !input.recipient)
      return rejectedInput('A direct message needs a recipient user id.', startedAt);
    if (input.kind === 'dm' && input.media?.length)
      return rejectedInput('Images in direct messages are not supported.', startedAt);
    const budget = callBudget(input.timeoutMs, input.signal);
    let mediaIds: string[] = [];
    if (input.media?.length) {
      const uploaded = await uploadMedia(input.media, budget);
      if (!uploaded.ok) return withTiming(uploaded.classification, uploaded.raw, startedAt);
      mediaIds = uploaded.ids;
    }
    const request =
      input.kind === 'dm'
        ? {
            url: `${base}/2/dm_conversations/with/${encodeURIComponent(input.recipient!)}/messages`,
            json: { text: input.text },
          }
        : {
            url: `${base}/2/tweets`,
            json: {
              text: input.text,
              ...(input.kind === 'reply' ? { reply: { in_reply_to_tweet_id: input.inReplyTo } } : {}),
              ...(mediaIds.length > 0 ? { media: { media_ids: mediaIds } } : {}),
            },
          };
    const raw = await send({
      method: 'POST',
      ...request,
      headers: auth,
      outbound: account.outbound,
      ...budget.options(),
    });
    const classification = classifyX(raw);
    if (classification.outcome === 'sent' && input.kind !== 'dm')
      classification.url = postUrl(classification.externalId!);
    return withTiming(classification, raw, startedAt);
  }

  /**
   * Each image before the post: POST /2/media/upload (multipart: `media`, `media_category`, `media_type`) answers
   * `{ data: { id } }`; alt text follows with POST /2/media/metadata. Any step that does not plainly succeed ends
   * the attempt before the post (lib/providers/media-step.ts); an upload that landed anyway is never used.
   */
  async function uploadMedia(
    media: readonly PublishMedia[],
    budget: ReturnType<typeof callBudget>,
  ): Promise<{ ok: true; ids: string[] } | { ok: false; classification: Classification; raw: RawOutcome }> {
    const read = await readMedia(media);
    if (!read.ok) return read;
    const ids: string[] = [];
    for (const [i, item] of media.entries()) {
      const raw = await send({
        method: 'POST',
        url: `${base}/2/media/upload`,
        headers: auth,
        outbound: account.outbound,
        multipart: {
          fields: { media_category: 'tweet_image', media_type: item.mimeType },
          files: [{ name: 'media', filename: `image-${i + 1}`, contentType: item.mimeType, data: read.bytes[i]! }],
        },
        ...budget.options(),
      });
      const uploaded = classifyX(raw);
      if (uploaded.outcome !== 'sent') return { ok: false, classification: mediaNotPosted('X', uploaded), raw };
      const id = uploaded.externalId!;
      if (item.altText) {
        const described = await send({
          method: 'POST',
          url: `${base}/2/media/metadata`,
          headers: auth,
          outbound: account.outbound,
          json: { id, metadata: { alt_text: { text: item.altText } } },
          ...budget.options(),
        });
        const c = classifyX(described);
        if (c.outcome !== 'sent') return { ok: false, classification: mediaNotPosted('X', c), raw: described };
      }
      ids.push(id);
    }
    return { ok: true, ids };
  }

  /** GET /2/users/:id/tweets within [since, until], following next_token; DMs are not part of it. */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    const posts: RecentPost[] = [];
    let token: string | undefined;
    for (let page = 0; page < (input.maxPages ?? 10); page++) {
      const query = new URLSearchParams({
        start_time: rfc3339(input.since, 'floor'),
        max_results: String(PAGE_SIZE),
        'tweet.fields': 'created_at,referenced_tweets,entities,note_tweet',
      });
      if (input.until) query.set('end_time', rfc3339(input.until, 'ceil'));
      if (token) query.set('pagination_token', token);
      const { body } = await readJson(
        {
          url: `${base}/2/users/${encodeURIComponent(account.platformUserId)}/tweets?${query}`,
          headers: auth,
          outbound: account.outbound,
          timeoutMs: input.timeoutMs,
          signal: input.signal,
        },
        X_RULES,
        send,
      );
      const { data, meta, errors } = asRecord(body);
      if (!Array.isArray(data) && Array.isArray(errors)) throw readFailure(errors);
      for (const item of Array.isArray(data) ? data : []) {
        const tweet = asRecord(item);
        const id = asString(tweet.id);
        if (!id) continue;
        const repliedTo = Array.isArray(tweet.referenced_tweets)
          ? tweet.referenced_tweets.map(asRecord).find((r) => r.type === 'replied_to')
          : undefined;
        const note = asRecord(tweet.note_tweet);
        posts.push({
          id,
          text: expandLinks(String(tweet.text ?? ''), tweet.entities),
          // A long post's whole text; `text` then holds X's cut of it.
          ...(typeof note.text === 'string' ? { source: expandLinks(note.text, note.entities) } : {}),
          createdAt: new Date(String(tweet.created_at)),
          inReplyTo: asString(repliedTo?.id) ?? null,
          url: postUrl(id),
        });
      }
      token = asString(asRecord(meta).next_token);
      if (!token) break;
    }
    return posts;
  }

  function whoAmI(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    return checkIdentity(async () => {
      const { body } = await readJson(
        { url: `${base}/2/users/me`, headers: auth, outbound: account.outbound, ...options },
        X_RULES,
        send,
      );
      const user = asRecord(asRecord(body).data);
      if (!asString(user.id)) throw readFailure(asRecord(body).errors);
      return {
        id: String(user.id),
        handle: `@${String(user.username ?? user.id)}`,
        displayName: asString(user.name) ?? null,
      };
    });
  }

  /** DELETE /2/tweets/:id answers { data: { deleted: true } }. */
  function deletePost(id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    return deleteOnce(
      { url: `${base}/2/tweets/${encodeURIComponent(id)}`, headers: auth, outbound: account.outbound, ...options },
      (body) => asRecord(asRecord(body).data).deleted === true,
      send,
    );
  }

  /**
   * GET /2/tweets?ids=…&tweet.fields=public_metrics (up to 100 a call): likes, retweets, replies, quotes, bookmarks and
   * impressions; an id in `errors` as "Not Found" is deleted (or no longer visible to the account: read no more).
   */
  const postMetrics: PostMetricsReader = {
    batchSize: 100,
    calls: (count) => Math.ceil(count / 100),
    async read(input) {
      const query = new URLSearchParams({ ids: input.ids.join(','), 'tweet.fields': 'public_metrics' });
      const { body } = await readJson(
        { url: `${base}/2/tweets?${query}`, headers: auth, outbound: account.outbound, ...callOptions(input) },
        X_RULES,
        send,
      );
      const { data, errors } = asRecord(body);
      if (!Array.isArray(data) && !Array.isArray(errors)) throw readFailure(errors);
      const found = new Map<string, PostMetricsRead>();
      for (const tweet of (Array.isArray(data) ? data : []).map(asRecord)) {
        const id = asString(tweet.id);
        const m = asRecord(tweet.public_metrics);
        if (!id || !tweet.public_metrics) continue;
        found.set(id, {
          status: 'found',
          metrics: presentMetrics({
            views: countOf(m.impression_count),
            likes: countOf(m.like_count),
            reposts: countOf(m.retweet_count),
            replies: countOf(m.reply_count),
            quotes: countOf(m.quote_count),
            saves: countOf(m.bookmark_count),
            clicks: undefined,
          }),
        });
      }
      for (const error of (Array.isArray(errors) ? errors : []).map(asRecord)) {
        const id = asString(error.resource_id) ?? asString(error.value);
        if (id && error.resource_type === 'tweet' && /resource-not-found/.test(String(error.type ?? '')))
          found.set(id, { status: 'gone' });
      }
      return found;
    },
  };

  /** GET /2/users/me?user.fields=public_metrics: `followers_count`. */
  async function readFollowers(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    const { body } = await readJson(
      {
        url: `${base}/2/users/me?${new URLSearchParams({ 'user.fields': 'public_metrics' })}`,
        headers: auth,
        outbound: account.outbound,
        ...options,
      },
      X_RULES,
      send,
    );
    const user = asRecord(asRecord(body).data);
    if (!asString(user.id)) throw readFailure(asRecord(body).errors);
    return countOf(asRecord(user.public_metrics).followers_count) ?? null;
  }

  return { provider: 'x', publish, listRecent, whoAmI, deletePost, postMetrics, readFollowers };
}

/**
 * X shows every link as t.co: each is put back as its `expanded_url`, and the link X appends for attached media
 * (an entity with a `media_key`) is dropped, since our text never had it.
 */
export function expandLinks(text: string, entities: unknown): string {
  const urls = asRecord(entities).urls;
  if (!Array.isArray(urls)) return text;
  let out = text;
  for (const entity of urls.map(asRecord)) {
    const short = asString(entity.url);
    if (!short) continue;
    out = out.split(short).join(entity.media_key ? '' : (asString(entity.expanded_url) ?? short));
  }
  return out.trim();
}

/** X answers some lookups with 200 and an `errors` array (e.g. an unknown user id). */
function readFailure(errors: unknown) {
  const raw = {
    type: 'response' as const,
    status: 404,
    headers: {},
    body: { errors },
    bodyText: JSON.stringify(errors ?? null),
  };
  const classification = classifyX(raw);
  return new ProviderReadError(`Could not read from X: ${classification.reason}`, classification);
}

/** X wants RFC 3339 to the second; round outward so the window never shrinks. */
function rfc3339(date: Date, round: 'floor' | 'ceil'): string {
  const seconds = (round === 'floor' ? Math.floor : Math.ceil)(date.getTime() / 1000);
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
