import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { deleteOnce } from '../delete-post';
import { sendOnce } from '@/lib/net/send';
import { mediaNotPosted, notCalled, readMedia, sleep } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import { callBudget, callOptions } from '../call-budget';
import { countOf, presentMetrics } from '@/lib/analytics/metrics';
import { asRecord, asString, checkIdentity, readJson } from '../read';
import type { ProviderTransport } from '../transport';
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
import { htmlToText } from '@/lib/reconcile/normalise';
import { MASTODON_RULES, classifyMastodon } from './classifier';
import { profileUrlOf, readInstanceDomain } from './instance';

type MastodonAccount = { baseUrl: string; platformUserId: string; accessToken: string; outbound?: OutboundPolicy };

/** Mastodon keeps an Idempotency-Key for one hour; resend with the same key only well inside that. */
export const IDEMPOTENCY_RETENTION_MS = 60 * 60_000;
const SAFE_RETRY_MARGIN_MS = 5 * 60_000;
const PAGE_SIZE = 40;
const PROCESSING_POLL_MS = 500;

/** A MediaAttachment's id in an upload's answer. */
const attachmentId = (raw: RawOutcome) => (raw.type === 'response' ? asString(asRecord(raw.body).id) : undefined);

/**
 * Mastodon REST API. Every publish carries the delivery's Idempotency-Key, so an ambiguous outcome
 * may be resent with the same key until `safeRetryUntil`: the instance then returns the original status.
 */
export function createMastodonClient(account: MastodonAccount, send: ProviderTransport = sendOnce): ProviderClient {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };

  async function publish(input: PublishInput): Promise<PublishResult> {
    const startedAt = new Date();
    if (input.kind === 'reply' && !input.inReplyTo)
      return rejectedInput('A reply needs the id of the status it answers.', startedAt);
    if (input.kind === 'dm' && !input.recipient)
      return rejectedInput('A direct message needs a recipient (user@instance).', startedAt);
    const budget = callBudget(input.timeoutMs, input.signal);
    let mediaIds: string[] = [];
    if (input.media?.length) {
      const uploaded = await uploadMedia(input.media, budget);
      if (!uploaded.ok) return withTiming(uploaded.classification, uploaded.raw, startedAt);
      mediaIds = uploaded.ids;
    }
    // A Mastodon DM is a status with visibility "direct" that mentions its recipient.
    const mention = input.recipient ? `@${input.recipient.replace(/^@/, '')}` : '';
    const status = input.kind === 'dm' && !input.text.includes(mention) ? `${mention} ${input.text}` : input.text;
    const raw = await send({
      method: 'POST',
      url: `${base}/api/v1/statuses`,
      headers: { ...auth, 'idempotency-key': input.idempotencyKey },
      outbound: account.outbound,
      json: {
        status,
        visibility: input.kind === 'dm' ? 'direct' : 'public',
        ...(input.kind === 'reply' ? { in_reply_to_id: input.inReplyTo } : {}),
        ...(mediaIds.length > 0 ? { media_ids: mediaIds } : {}),
      },
      ...budget.options(),
    });
    const classification = classifyMastodon(raw);
    if (classification.outcome === 'ambiguous') {
      classification.safeRetryUntil = new Date(startedAt.getTime() + IDEMPOTENCY_RETENTION_MS - SAFE_RETRY_MARGIN_MS);
      classification.evidence = { ...classification.evidence, idempotencyKey: input.idempotencyKey };
    }
    return withTiming(classification, raw, startedAt);
  }

  /**
   * Each image before the status: POST /api/v2/media (multipart `file`, `description`). 200 means processed; 202
   * means still processing (`url` null), and a status naming it would be refused, so GET /api/v1/media/:id is
   * polled (206 while processing, 200 when done) within the call's budget. Anything short of a ready attachment
   * ends the attempt before the status (lib/providers/media-step.ts); the orphan upload is never attached.
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
        url: `${base}/api/v2/media`,
        headers: auth,
        outbound: account.outbound,
        multipart: {
          fields: item.altText ? { description: item.altText } : {},
          files: [{ name: 'file', filename: `image-${i + 1}`, contentType: item.mimeType, data: read.bytes[i]! }],
        },
        ...budget.options(),
      });
      const id = attachmentId(raw);
      if (!id || raw.type !== 'response' || (raw.status !== 200 && raw.status !== 202))
        return { ok: false, classification: mediaNotPosted('Mastodon', classifyMastodon(raw)), raw };
      if (raw.status === 202) {
        const ready = await awaitProcessing(id, budget);
        if (ready !== true) return ready;
      }
      ids.push(id);
    }
    return { ok: true, ids };
  }

  async function awaitProcessing(
    id: string,
    budget: ReturnType<typeof callBudget>,
  ): Promise<true | { ok: false; classification: Classification; raw: RawOutcome }> {
    let last: RawOutcome = notCalled('still processing');
    while (budget.left() > PROCESSING_POLL_MS + 500) {
      await sleep(PROCESSING_POLL_MS);
      last = await send({
        method: 'GET',
        url: `${base}/api/v1/media/${encodeURIComponent(id)}`,
        headers: auth,
        outbound: account.outbound,
        ...budget.options(),
      });
      if (last.type === 'response' && last.status === 200 && attachmentId(last)) return true;
      if (last.type !== 'response' || last.status !== 206)
        return { ok: false, classification: mediaNotPosted('Mastodon', classifyMastodon(last)), raw: last };
    }
    return {
      ok: false,
      classification: {
        outcome: 'not_sent',
        rule: 'media-still-processing',
        retryAt: new Date(Date.now() + 5_000),
        reason: 'Mastodon was still processing an image when the call’s time ran out; the status was not attempted.',
        evidence: { mediaId: id },
      },
      raw: last,
    };
  }

  /** GET /api/v1/accounts/:id/statuses pages newest first (max_id); stops once past `since`. */
  async function listRecent(input: ListRecentInput): Promise<RecentPost[]> {
    const posts: RecentPost[] = [];
    let maxId: string | undefined;
    for (let page = 0; page < (input.maxPages ?? 10); page++) {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (maxId) query.set('max_id', maxId);
      const { body } = await readJson(
        {
          url: `${base}/api/v1/accounts/${encodeURIComponent(account.platformUserId)}/statuses?${query}`,
          headers: auth,
          outbound: account.outbound,
          timeoutMs: input.timeoutMs,
          signal: input.signal,
        },
        MASTODON_RULES,
        send,
      );
      const statuses = Array.isArray(body) ? body.map(asRecord) : [];
      for (const s of statuses) {
        const createdAt = new Date(String(s.created_at));
        if (createdAt < input.since || (input.until && createdAt > input.until)) continue;
        const id = String(s.id);
        posts.push({
          id,
          text: htmlToText(String(s.content ?? '')),
          source: await readSource(id, input),
          createdAt,
          inReplyTo: asString(s.in_reply_to_id) ?? null,
          url: asString(s.url),
        });
      }
      const oldest = statuses.at(-1);
      if (statuses.length < PAGE_SIZE || !oldest || new Date(String(oldest.created_at)) < input.since) break;
      maxId = String(oldest.id);
    }
    return posts;
  }

  /**
   * What the server stored for one status (GET /api/v1/statuses/:id/source, Mastodon ≥ 3.5, Hollo): rendering
   * (Markdown to HTML, linked mentions) cannot hide it. Undefined where the server has no such route (404/405/501);
   * any other failure fails the read, so a decision is never made on half the evidence.
   */
  async function readSource(id: string, input: ListRecentInput): Promise<string | undefined> {
    const raw = await send({
      method: 'GET',
      url: `${base}/api/v1/statuses/${encodeURIComponent(id)}/source`,
      headers: auth,
      outbound: account.outbound,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
    });
    if (raw.type === 'response' && [404, 405, 410, 501].includes(raw.status)) return undefined;
    if (raw.type === 'response' && raw.status >= 200 && raw.status < 300) {
      const text = asRecord(raw.body).text;
      if (typeof text === 'string') return text;
    }
    const classification = classifyMastodon(raw);
    throw new ProviderReadError(`Could not read a status's source: ${classification.reason}`, classification);
  }

  /** The token's account (verify_credentials), its handle on the instance's own domain and its page (`url`). */
  function whoAmI(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    const budget = callBudget(options.timeoutMs, options.signal);
    return checkIdentity(async () => {
      const { body } = await readJson(
        {
          url: `${base}/api/v1/accounts/verify_credentials`,
          headers: auth,
          outbound: account.outbound,
          ...budget.options(),
        },
        MASTODON_RULES,
        send,
      );
      const me = asRecord(body);
      // Only a real account object: a stored base URL then receives a POST with the token on every publish.
      if (!asString(me.id) || !asString(me.acct) || !asString(me.username)) {
        throw new ProviderReadError('Not a Mastodon account', {
          outcome: 'failed',
          rule: 'not-an-account',
          reason: 'The answer is not a Mastodon account (id, acct, username).',
        });
      }
      const acct = String(me.acct);
      const domain = acct.includes('@')
        ? null
        : await readInstanceDomain({ base, headers: auth, outbound: account.outbound, options: budget.options }, send);
      return {
        id: String(me.id),
        handle: domain ? `@${acct}@${domain}` : `@${acct}`,
        displayName: asString(me.display_name) ?? null,
        url: profileUrlOf(me.url),
      };
    });
  }

  /** DELETE /api/v1/statuses/:id answers with the deleted status. */
  function deletePost(id: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    return deleteOnce(
      {
        url: `${base}/api/v1/statuses/${encodeURIComponent(id)}`,
        headers: auth,
        outbound: account.outbound,
        ...options,
      },
      () => true,
      send,
    );
  }

  /**
   * GET /api/v1/statuses/:id, one status a call (every Mastodon-API server has it; the 4.3 list of ids does not exist
   * on older ones): favourites_count, reblogs_count, replies_count. Mastodon counts no views. 404: deleted.
   */
  const postMetrics: PostMetricsReader = {
    batchSize: 1,
    calls: (count) => count,
    async read(input) {
      const found = new Map<string, PostMetricsRead>();
      for (const id of input.ids) {
        const raw = await send({
          method: 'GET',
          url: `${base}/api/v1/statuses/${encodeURIComponent(id)}`,
          headers: auth,
          outbound: account.outbound,
          ...callOptions(input),
        });
        if (raw.type === 'response' && (raw.status === 404 || raw.status === 410)) {
          found.set(id, { status: 'gone' });
          continue;
        }
        const status = raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : null;
        if (!status || asString(status.id) !== id) {
          const classification = classifyMastodon(raw);
          throw new ProviderReadError(`Could not read a status: ${classification.reason}`, classification);
        }
        found.set(id, {
          status: 'found',
          metrics: presentMetrics({
            views: undefined,
            likes: countOf(status.favourites_count),
            reposts: countOf(status.reblogs_count),
            replies: countOf(status.replies_count),
            // Mastodon 4.5 counts quotes; older servers leave the field out (absent, not zero).
            quotes: countOf(status.quotes_count),
            saves: undefined,
            clicks: undefined,
          }),
        });
      }
      return found;
    },
  };

  /** verify_credentials: the account's `followers_count`. */
  async function readFollowers(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
    const { body } = await readJson(
      { url: `${base}/api/v1/accounts/verify_credentials`, headers: auth, outbound: account.outbound, ...options },
      MASTODON_RULES,
      send,
    );
    return countOf(asRecord(body).followers_count) ?? null;
  }

  return { provider: 'mastodon', publish, listRecent, whoAmI, deletePost, postMetrics, readFollowers };
}
