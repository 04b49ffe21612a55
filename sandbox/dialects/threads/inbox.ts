import { withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { invalidParameter, invalidToken, unsupportedRequest } from './errors';
import { graphPage, mediaJson } from './reads';

// What people say to a Threads account, as the Threads API serves it (developers.facebook.com/documentation/threads:
// "Mentions", "Retrieve Media Replies and Conversations"): GET /{user}/mentions (public posts that tag the profile,
// newest first, since/until, limit, cursors) and GET /{media}/replies (top-level) or /{media}/conversation (every
// depth) on the account's own media, `reverse` (default true: newest first), with `is_reply_owned_by_me`.

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
/** "…greater than or equal to 1688540400". */
const EARLIEST_SINCE = 1_688_540_400;

export async function handleThreadsInbox(
  request: Request,
  path: string,
  deps: SandboxDeps,
  base: string,
): Promise<Response | null> {
  const node = /^(?:\/v\d+\.\d+)?\/([^/]+)\/(mentions|replies|conversation)\/?$/.exec(path);
  if (!node || request.method !== 'GET') return null;
  const url = new URL(request.url);
  const token = bearerToken(request) ?? url.searchParams.get('access_token');
  const viewer = token ? await deps.store.authenticate('threads', token) : null;
  if (!viewer) return invalidToken();
  const id = decodeURIComponent(node[1]!);
  // GET /{user}/replies is the user's own replies: the dialect's listing.
  if (node[2] === 'replies' && (id === 'me' || id === viewer.platformUserId)) return null;
  if (node[2] === 'mentions') {
    if (id !== 'me' && id !== viewer.platformUserId) return unsupportedRequest('get', id);
    return mentions(url, viewer, deps, base);
  }
  return replies(url, id, node[2] === 'conversation', viewer, deps, base);
}

function pageOf(url: URL): { limit: number; maxId?: string } | Response {
  const params = url.searchParams;
  const limit = params.has('limit') ? Number(params.get('limit')) : DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return invalidParameter(`limit must be an integer from 1 to ${MAX_LIMIT}.`);
  const after = params.get('after');
  const maxId = after ? Buffer.from(after, 'base64url').toString() : undefined;
  if (maxId !== undefined && !/^\d{1,19}$/.test(maxId)) return invalidParameter('The after cursor is invalid.');
  return { limit, maxId };
}

async function respond(
  url: URL,
  rows: SandboxPost[],
  limit: number,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
) {
  const page = rows.slice(0, limit);
  const fields = new Set((url.searchParams.get('fields') ?? 'id').split(',').filter(Boolean));
  const data = [];
  for (const post of page) {
    const author = (await deps.store.getAccountById(post.accountId))!;
    data.push({
      ...mediaJson(post, author, fields, base),
      ...(fields.has('is_reply_owned_by_me') && post.kind === 'reply'
        ? { is_reply_owned_by_me: author.id === viewer.id }
        : {}),
      ...(fields.has('root_post') && post.inReplyToId ? { root_post: { id: await rootOf(post, deps) } } : {}),
    });
  }
  return graphPage(url, rows, limit, data);
}

async function rootOf(post: SandboxPost, deps: SandboxDeps): Promise<string> {
  let current = post;
  for (let depth = 0; depth < 50 && current.inReplyToId; depth++) {
    const parent = await deps.store.getPost(current.inReplyToId);
    if (!parent) break;
    current = parent;
  }
  return current.id;
}

/** GET /{user}/mentions: posts by others that tag the account, newest first. */
async function mentions(url: URL, viewer: SandboxAccount, deps: SandboxDeps, base: string) {
  const page = pageOf(url);
  if (page instanceof Response) return page;
  const since = url.searchParams.get('since');
  const until = url.searchParams.get('until');
  if ((since && !/^\d+$/.test(since)) || (until && !/^\d+$/.test(until)))
    return invalidParameter('since and until must be Unix timestamps.');
  if (since && Number(since) < EARLIEST_SINCE) return invalidParameter(`since must be at least ${EARLIEST_SINCE}.`);
  if (since && until && Number(since) >= Number(until)) return invalidParameter('since must be earlier than until.');
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'threads', accountId: viewer.id });
  if (read instanceof Response) return read;
  const upTo = until ? new Date(Math.min(Number(until) * 1000, read.createdUpTo.getTime())) : read.createdUpTo;
  const rows = await deps.store.listInbound(viewer.id, {
    kinds: ['post'],
    maxId: page.maxId,
    startTime: since ? new Date(Number(since) * 1000) : undefined,
    createdUpTo: upTo,
    limit: page.limit + 1,
  });
  return respond(url, rows, page.limit, viewer, deps, base);
}

/** GET /{media}/replies or /conversation on one of the account's own posts (anyone's replies, its own included). */
async function replies(
  url: URL,
  mediaId: string,
  everyDepth: boolean,
  viewer: SandboxAccount,
  deps: SandboxDeps,
  base: string,
) {
  const page = pageOf(url);
  if (page instanceof Response) return page;
  const root = /^\d{1,19}$/.test(mediaId) ? await deps.store.getPost(mediaId) : null;
  if (!root || root.accountId !== viewer.id || root.kind === 'dm') return unsupportedRequest('get', mediaId);
  await receiveInbound(deps.store, viewer);
  const read = await withListingFaults(deps, { platform: 'threads', accountId: viewer.id });
  if (read instanceof Response) return read;
  const found: SandboxPost[] = [];
  const queue = [root.id];
  while (queue.length > 0 && found.length < 1_000) {
    const level = await deps.store.listReplies(queue.shift()!, { createdUpTo: read.createdUpTo, limit: 1_000 });
    found.push(...level);
    if (everyDepth) queue.push(...level.map((r) => r.id));
  }
  const reverse = url.searchParams.get('reverse') !== 'false';
  found.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1) * (reverse ? 1 : -1));
  const after = page.maxId;
  const start = after ? found.findIndex((p) => p.id === after) + 1 : 0;
  return respond(url, found.slice(start), page.limit, viewer, deps, base);
}
