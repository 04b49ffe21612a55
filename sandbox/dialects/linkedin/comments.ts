import { withListingFaults, withWriteFaults, json } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { writeWithProfile } from '@/sandbox/behaviour/profiles';
import { characterCount, readBody } from '@/sandbox/http/request';
import type { SandboxAccount, SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { accessDenied, error, notFound, unprocessable } from './errors';
import { actsAs } from './identity';
import { shareId, shareUrn } from './posts';

// LinkedIn's Comments API as the sandbox serves it (learn.microsoft.com/linkedin/marketing/community-management/
// shares/comments-api): comments on a post under /rest/socialActions/{shareUrn}/comments. As weak as the real thing:
// no idempotency and no duplicate refusal (every POST that arrives is a comment), with the commenter's write faults.
// A comment is a sandbox reply to the post, by its own author; the listing shows everyone's, each with its actor, and
// is what the inbox reads (docs/sandbox.md#inbound): what people said to the page is materialised when it is asked for.

/** What LinkedIn takes in a comment (the Comments API names no length; its comment box stops at 1,250). */
const MAX_COMMENT = 1_250;
const MAX_COUNT = 100;

/**
 * A share's activity: LinkedIn names a post's comments by the activity's URN, another number than the share's (so a
 * client that makes one URN out of the other fails here as it would there).
 */
const ACTIVITY_OFFSET = 1_000n;
const activityUrn = (postId: string) => `urn:li:activity:${BigInt(postId) + ACTIVITY_OFFSET}`;
export const commentUrn = (post: SandboxPost) => `urn:li:comment:(${activityUrn(post.inReplyToId!)},${post.id})`;

/** The sandbox post a path names, by its share or its activity URN. */
function postIdOf(urn: string): string | null {
  const activity = /^urn:li:activity:(\d{1,20})$/.exec(urn)?.[1];
  return activity ? shareId(shareUrn(String(BigInt(activity) - ACTIVITY_OFFSET))) : shareId(urn);
}

/** /rest/socialActions/{urn}/comments[/{id}]: `urn` the path's (decoded), `id` a comment's where the path names one. */
export async function handleLinkedinComments(
  request: Request,
  member: SandboxAccount,
  urn: string,
  id: string | undefined,
  version: string,
  deps: SandboxDeps,
): Promise<Response> {
  const postId = postIdOf(urn);
  const post = postId ? await deps.store.getPost(postId) : null;
  const author =
    post && post.kind === 'post' && !post.deletedAt ? await deps.store.getAccountById(post.accountId) : null;
  if (!post || author?.platform !== 'linkedin') return notFound();
  if (request.method === 'POST' && id === undefined) return createComment(request, member, post, deps);
  if (request.method === 'GET' && id === undefined) return listComments(request, member, post, author, version, deps);
  if (request.method === 'DELETE' && id !== undefined) return deleteComment(request, member, post, id, deps);
  return error(405, 'Method not allowed');
}

/** POST: `{ actor, object, message: { text } }` → 201, `x-restli-id` the comment's id, the comment in the body. */
async function createComment(request: Request, member: SandboxAccount, post: SandboxPost, deps: SandboxDeps) {
  const body = await readBody(request);
  if (!body) return error(400, 'Request body could not be converted to data map', 'ILLEGAL_ARGUMENT');
  const missing = ['actor', 'object', 'message'].filter((f) => body[f] === undefined);
  if (missing.length > 0)
    return unprocessable(missing.map((f) => `/${f} :: field is required but not found and has no default value`));
  const { actor, object } = body;
  const text = (body.message as { text?: unknown } | null)?.text;
  if (object !== shareUrn(post.id) && object !== activityUrn(post.id))
    return unprocessable([`/object :: ${JSON.stringify(object)} is not the post the path names`]);
  if (typeof text !== 'string' || text.trim() === '') return unprocessable(['/message/text :: must not be empty']);
  if (characterCount(text) > MAX_COMMENT)
    return unprocessable([`/message/text :: length of ${characterCount(text)} exceeds the maximum ${MAX_COMMENT}`]);
  const commenter =
    typeof actor === 'string' && actsAs(member.platformUserId, actor)
      ? await deps.store.getAccount('linkedin', actor)
      : null;
  if (!commenter)
    return accessDenied(
      'Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/actor]',
    );
  return withWriteFaults(deps, request, { platform: 'linkedin', accountId: commenter.id }, async (context) => {
    // A comment is no post: LinkedIn's duplicate refusal is not for it (the plain profile: every comment is made,
    // when the platform gets to it, client or not).
    const written = await writeWithProfile(
      deps.store,
      { account: commenter, kind: 'reply', text, inReplyToId: post.id },
      { ...context, profile: 'plain' },
    );
    if (written.status !== 'created') return error(500, 'Internal Server Error');
    return new Response(JSON.stringify(commentJson(written.post, commenter)), {
      status: 201,
      headers: { 'content-type': 'application/json', 'x-restli-id': written.post.id },
    });
  });
}

/**
 * GET ?start&count: everyone's comments on the post, newest first, with `paging.total`. A page's post is read by
 * its administrators (r_organization_social); a member's comments need r_member_social, which this app does not
 * have (403), as on LinkedIn.
 */
async function listComments(
  request: Request,
  member: SandboxAccount,
  post: SandboxPost,
  author: SandboxAccount,
  version: string,
  deps: SandboxDeps,
) {
  const query = new URL(request.url).searchParams;
  const count = query.has('count') ? Number(query.get('count')) : 10;
  const start = query.has('start') ? Number(query.get('start')) : 0;
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT || !Number.isInteger(start) || start < 0)
    return error(400, `count must be 1 to ${MAX_COUNT} and start at least 0`, 'ILLEGAL_ARGUMENT');
  if (
    !author.platformUserId.startsWith('urn:li:organization:') ||
    !actsAs(member.platformUserId, author.platformUserId)
  )
    return accessDenied(`Not enough permissions to access: socialActions.comments.FINDER.${version}`);
  await receiveInbound(deps.store, author);
  const read = await withListingFaults(deps, { platform: 'linkedin', accountId: author.id });
  if (read instanceof Response) return read;
  const all = await deps.store.listReplies(post.id, { createdUpTo: read.createdUpTo, limit: 10_000 });
  const elements = [];
  for (const comment of all.slice(start, start + count)) {
    const commenter = (await deps.store.getAccountById(comment.accountId))!;
    elements.push(commentJson(comment, commenter));
  }
  return json(200, { paging: { start, count, total: all.length, links: [] }, elements });
}

/** DELETE …/comments/{id}?actor=…: the actor's own comment on this post → 204; gone or unknown → 404. */
async function deleteComment(
  request: Request,
  member: SandboxAccount,
  post: SandboxPost,
  id: string,
  deps: SandboxDeps,
) {
  const actor = new URL(request.url).searchParams.get('actor') ?? '';
  const comment = await deps.store.getPost(id);
  if (!comment || comment.kind !== 'reply' || comment.inReplyToId !== post.id) return notFound();
  const commenter = await deps.store.getAccountById(comment.accountId);
  if (!commenter || commenter.platformUserId !== actor || !actsAs(member.platformUserId, actor))
    return accessDenied('Not enough permissions to delete this comment');
  const result = await deps.store.deletePost(commenter.id, comment.id);
  return result.status === 'deleted' ? new Response(null, { status: 204 }) : notFound();
}

/** A comment as the Comments API returns it (times in epoch milliseconds, the thread named by its activity). */
function commentJson(comment: SandboxPost, commenter: SandboxAccount) {
  const at = { actor: commenter.platformUserId, time: comment.createdAt.getTime() };
  const urn = commentUrn(comment);
  return {
    actor: commenter.platformUserId,
    commentUrn: urn,
    $URN: urn,
    id: comment.id,
    object: activityUrn(comment.inReplyToId!),
    message: { text: comment.text, attributes: [] },
    created: at,
    lastModified: at,
  };
}
