import { json, withListingFaults, withWriteFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { invalidParameter, unknownPath, unsupportedRequest } from '@/sandbox/dialects/threads/errors';
import { graphTime } from '@/sandbox/dialects/threads/reads';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { facebookMessageLength } from './text-length';

// Comments on a Page's posts as the sandbox serves them (developers.facebook.com/docs/graph-api/reference/object/
// comments): POST /{page-post-id}/comments with the page token makes the Page's comment, GET lists everyone's with
// `from`, DELETE /{comment-id} removes the Page's own. As weak as the real thing: no idempotency and no duplicate
// refusal (every POST that arrives is a comment), with the page's write faults. A comment is a sandbox reply to
// the post by its own author, a reply under a comment one to the comment. The listing is also what the inbox reads
// (docs/sandbox.md#inbound): what people said to the page is materialised when it is asked for.

/** What Facebook takes in a comment (the Graph reference names no length; its comment box stops at 8,000). */
const MAX_COMMENT = 8_000;
const MAX_LIMIT = 100;

/** The page's own live post that `{page-id}_{post-id}` names, or null. */
async function pagePost(id: string, page: SandboxAccount, deps: SandboxDeps): Promise<SandboxPost | null> {
  const [pageId, postId] = id.split('_');
  if (pageId !== page.platformUserId || !/^\d{1,19}$/.test(postId ?? '')) return null;
  const post = await deps.store.getPost(postId!);
  return post && post.accountId === page.id && post.kind === 'post' && !post.deletedAt ? post : null;
}

/** A comment's id as Graph names it: `{post-id}_{comment-id}`, a reply under a comment too. */
const commentId = (post: SandboxPost, comment: SandboxPost) => `${post.id}_${comment.id}`;

/** /{page-post-id}/comments with the page's token (`page`: the token's page). */
export async function handleFacebookComments(
  request: Request,
  url: URL,
  params: URLSearchParams,
  id: string,
  page: SandboxAccount,
  deps: SandboxDeps,
): Promise<Response> {
  const method = request.method === 'GET' ? 'get' : 'post';
  const post = await pagePost(id, page, deps);
  if (!post) return unsupportedRequest(method, id);
  if (request.method === 'GET') return listComments(url, params, post, page, deps);
  if (request.method !== 'POST') return unknownPath(url.pathname);
  const message = params.get('message') ?? '';
  if (message.trim() === '' && !params.has('attachment_url') && !params.has('attachment_id'))
    return invalidParameter('A comment needs a message or an attachment.');
  if (params.has('attachment_url') || params.has('attachment_id') || params.has('source'))
    return invalidParameter('The sandbox takes a comment’s message only.');
  if (facebookMessageLength(message) > MAX_COMMENT)
    return invalidParameter(`A comment must be at most ${MAX_COMMENT} characters.`);
  return withWriteFaults(deps, request, { platform: 'facebook', accountId: page.id }, async (context) => {
    // Made when the platform gets to it (slow processing), client or not; no dedupe (the plain profile).
    const written = await writeWithProfile(
      deps.store,
      { account: page, kind: 'reply', text: message, inReplyToId: post.id },
      { ...context, profile: 'plain' },
    );
    if (written.status !== 'created') throw new Error(`a Facebook comment write ended ${written.status}`);
    return json(200, { id: commentId(post, written.post) });
  });
}

/**
 * GET: everyone's comments on the post with the requested fields (`id` always), `filter` toplevel (default) or
 * stream (every level, each reply under a comment naming its `parent`), `order` chronological (default) or
 * reverse_chronological, `limit` (default 25, at most 100) a page, `after` the cursor of the last one read;
 * `summary=true` adds the total.
 */
async function listComments(
  url: URL,
  params: URLSearchParams,
  post: SandboxPost,
  page: SandboxAccount,
  deps: SandboxDeps,
): Promise<Response> {
  const limit = params.has('limit') ? Number(params.get('limit')) : 25;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return invalidParameter(`limit must be from 1 to ${MAX_LIMIT}.`);
  const order = params.get('order') ?? 'chronological';
  if (order !== 'chronological' && order !== 'reverse_chronological')
    return invalidParameter('order must be chronological or reverse_chronological.');
  const filter = params.get('filter') ?? 'toplevel';
  if (filter !== 'toplevel' && filter !== 'stream') return invalidParameter('filter must be toplevel or stream.');
  await receiveInbound(deps.store, page);
  const read = await withListingFaults(deps, { platform: 'facebook', accountId: page.id });
  if (read instanceof Response) return read;
  const newestFirst = await deps.store.listReplies(post.id, { createdUpTo: read.createdUpTo, limit: 10_000 });
  if (filter === 'stream') {
    // Every level: the replies under each comment too, newest first with the rest.
    for (let i = 0; i < newestFirst.length && newestFirst.length < 10_000; i++)
      newestFirst.push(
        ...(await deps.store.listReplies(newestFirst[i]!.id, { createdUpTo: read.createdUpTo, limit: 100 })),
      );
    newestFirst.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }
  const all = order === 'chronological' ? [...newestFirst].reverse() : newestFirst;
  const after = params.get('after');
  let start = 0;
  if (after) {
    const last = Buffer.from(after, 'base64url').toString();
    const at = all.findIndex((c) => c.id === last);
    if (at === -1) return invalidParameter('The after cursor is invalid.');
    start = at + 1;
  }
  const slice = all.slice(start, start + limit);
  const fields = new Set((params.get('fields') ?? 'id').split(',').filter(Boolean));
  const data = [];
  for (const comment of slice) {
    const author = (await deps.store.getAccountById(comment.accountId))!;
    const every: Record<string, unknown> = {
      id: commentId(post, comment),
      message: comment.text,
      created_time: graphTime(comment.createdAt),
      from: { id: author.platformUserId, name: author.displayName ?? author.handle },
      ...(comment.inReplyToId !== post.id ? { parent: { id: `${post.id}_${comment.inReplyToId}` } } : {}),
    };
    data.push(Object.fromEntries(Object.entries(every).filter(([key]) => key === 'id' || fields.has(key))));
  }
  const body: Record<string, unknown> = { data };
  if (slice.length > 0) {
    const cursor = (c: SandboxPost) => Buffer.from(c.id).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(slice[0]!), after: cursor(slice.at(-1)!) } };
    if (start + limit < all.length) {
      const next = new URL(url);
      next.searchParams.delete('access_token');
      next.searchParams.set('after', cursor(slice.at(-1)!));
      paging.next = next.toString();
    }
    body.paging = paging;
  }
  if (params.get('summary') === 'true') body.summary = { order, total_count: all.length, can_comment: true };
  return json(200, body);
}

/** DELETE /{post-id}_{comment-id}: the page's own comment → `{ success: true }`; null when it is none of those. */
export async function deleteFacebookComment(
  id: string,
  page: SandboxAccount,
  deps: SandboxDeps,
): Promise<Response | null> {
  const [postId, ownId] = id.split('_');
  if (!/^\d{1,19}$/.test(ownId ?? '')) return null;
  const comment = await deps.store.getPost(ownId!);
  if (!comment || comment.kind !== 'reply' || comment.accountId !== page.id) return null;
  // Under the post the id names: a comment on it, or a reply under one of its comments.
  const parent =
    comment.inReplyToId && comment.inReplyToId !== postId ? await deps.store.getPost(comment.inReplyToId) : null;
  if (comment.inReplyToId !== postId && parent?.inReplyToId !== postId) return null;
  const result = await deps.store.deletePost(page.id, comment.id);
  return result.status === 'deleted' ? json(200, { success: true }) : null;
}
