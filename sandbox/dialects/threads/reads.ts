import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { invalidParameter } from './errors';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';

// The Threads API's reads as the sandbox serves them: the user's threads and replies (GET /{user}/threads,
// GET /{user}/replies: newest first, since/until, limit, cursor paging) and one media object.

/** "…greater than or equal to 1688540400" (the launch of Threads). */
const EARLIEST_SINCE = 1_688_540_400;
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** GET /{user}/threads (top-level posts) or /{user}/replies: the token's own user only. */
export async function listThreads(
  url: URL,
  params: URLSearchParams,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
  kind: 'post' | 'reply',
  /** Instagram's media listing and Facebook's published_posts are the same shape: their own objects, no earliest `since`. */
  listing: {
    platform: 'threads' | 'instagram' | 'facebook';
    earliestSince: number;
    mediaJson: typeof mediaJson;
    keep?: (post: SandboxPost) => boolean;
  } = { platform: 'threads', earliestSince: EARLIEST_SINCE, mediaJson },
): Promise<Response> {
  const limit = params.has('limit') ? Number(params.get('limit')) : DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return invalidParameter(`limit must be an integer from 1 to ${MAX_LIMIT}.`);
  const since = parseTime(params.get('since'));
  const until = parseTime(params.get('until'));
  const now = Math.ceil(Date.now() / 1000);
  if (since === 'invalid' || until === 'invalid') return invalidParameter('since and until must be Unix timestamps.');
  if (since !== null && since < listing.earliestSince)
    return invalidParameter(`since must be at least ${listing.earliestSince}.`);
  if (until !== null && until > now) return invalidParameter('until must not be later than the current time.');
  if (since !== null && until !== null && since >= until) return invalidParameter('since must be earlier than until.');
  const after = params.get('after');
  const maxId = after ? Buffer.from(after, 'base64url').toString() : undefined;
  if (maxId !== undefined && !/^\d{1,19}$/.test(maxId)) return invalidParameter('The after cursor is invalid.');
  const read = await withListingFaults(deps, { platform: listing.platform, accountId: viewer.id });
  if (read instanceof Response) return read;
  const rows = await deps.store.listPosts(viewer.id, {
    kinds: [kind],
    startTime: since === null ? undefined : new Date(since * 1000),
    endTime: until === null ? undefined : new Date(until * 1000),
    maxId,
    createdUpTo: read.createdUpTo,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const fields = new Set((params.get('fields') ?? 'id').split(',').filter(Boolean));
  const shown = listing.keep ? page.filter(listing.keep) : page;
  return graphPage(
    url,
    rows,
    limit,
    shown.map((p) => listing.mediaJson(p, viewer, fields, base)),
  );
}

/**
 * A Graph list's answer: `data`, and when the page has rows the paging cursors (the rows' ids, base64url) with `next`
 * (this URL after the page's last row, without the token) when `rows` (read with one row beyond `limit`) has more.
 */
export function graphPage(url: URL, rows: readonly { id: string }[], limit: number, data: unknown[]): Response {
  const page = rows.slice(0, limit);
  const body: Record<string, unknown> = { data };
  if (page.length > 0) {
    const cursor = (id: string) => Buffer.from(id).toString('base64url');
    const paging: Record<string, unknown> = {
      cursors: { before: cursor(page[0]!.id), after: cursor(page.at(-1)!.id) },
    };
    if (rows.length > limit) {
      const next = new URL(url);
      next.searchParams.delete('access_token');
      next.searchParams.set('after', cursor(page.at(-1)!.id));
      paging.next = next.toString();
    }
    body.paging = paging;
  }
  return json(200, body);
}

/** GET /{user}/threads_publishing_limit: what the 24 h quotas have used. */
export async function publishingLimit(viewer: SandboxAccount, deps: SandboxDeps): Promise<Response> {
  const since = Date.now() - 24 * 3_600_000;
  const recent = (await deps.store.listAllPosts(viewer.id)).filter((p) => p.createdAt.getTime() >= since);
  return json(200, {
    data: [
      {
        quota_usage: recent.filter((p) => p.kind === 'post').length,
        config: { quota_total: 250, quota_duration: 86_400 },
        reply_quota_usage: recent.filter((p) => p.kind === 'reply').length,
        reply_config: { quota_total: 1_000, quota_duration: 86_400 },
      },
    ],
  });
}

/** A Threads media object with the requested fields (Graph returns only `id` by default). */
export function mediaJson(post: SandboxPost, author: SandboxAccount, fields: Set<string>, base: string) {
  const username = author.handle.replace(/^@/, '');
  const all: Record<string, unknown> = {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: 'TEXT_POST',
    text: post.text,
    timestamp: graphTime(post.createdAt),
    permalink: `${base}/v1.0/${post.id}?fields=id,text,timestamp,permalink,username`,
    username,
    shortcode: Buffer.from(post.id).toString('base64url'),
    is_quote_post: false,
    is_reply: post.kind === 'reply',
    ...(post.kind === 'post' ? { owner: { id: author.platformUserId } } : {}),
    ...(post.inReplyToId ? { replied_to: { id: post.inReplyToId } } : {}),
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => key === 'id' || fields.has(key)));
}

/** Graph's timestamps: ISO 8601 to the second with a numeric offset (2026-04-15T14:30:00+0000). */
export function graphTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** A Unix timestamp, or a date strtotime() would take (here: ISO 8601). */
function parseTime(value: string | null): number | null | 'invalid' {
  if (value === null || value === '') return null;
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 'invalid' : Math.floor(ms / 1000);
}
