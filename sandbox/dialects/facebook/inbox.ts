import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { invalidParameter, invalidToken, unsupportedRequest } from '@/sandbox/dialects/threads/errors';
import { graphTime } from '@/sandbox/dialects/threads/reads';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxDeps } from '@/sandbox/store/types';

// The comments on a Page's posts, as the Graph API serves them (developers.facebook.com/docs/graph-api/reference/
// object/comments): GET /{page-id}_{post-id}/comments with the page token (pages_read_user_content), `fields`,
// `filter` (toplevel, the default, or stream: every level with each reply's `parent`), `order` (chronological or
// reverse_chronological), `limit` and `after` cursors; each comment `{post}_{comment}`.

export async function handleFacebookInbox(request: Request, path: string, deps: SandboxDeps): Promise<Response | null> {
  const match = /^(?:\/v\d+\.\d+)?\/(\d+)_(\d{1,19})\/comments\/?$/.exec(path);
  if (!match || request.method !== 'GET') return null;
  const url = new URL(request.url);
  const token = bearerToken(request) ?? url.searchParams.get('access_token');
  const page = token ? await deps.store.authenticate('facebook', token) : null;
  if (!page) return invalidToken();
  const [, pageId, postId] = match;
  const post = await deps.store.getPost(postId!);
  if (pageId !== page.platformUserId || !post || post.accountId !== page.id || post.kind !== 'post' || post.deletedAt)
    return unsupportedRequest('get', `${pageId}_${postId}`);
  const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : 25;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalidParameter('limit must be from 1 to 100.');
  const filter = url.searchParams.get('filter') ?? 'toplevel';
  if (filter !== 'toplevel' && filter !== 'stream') return invalidParameter('filter must be toplevel or stream.');
  const order = url.searchParams.get('order') ?? 'chronological';
  if (order !== 'chronological' && order !== 'reverse_chronological')
    return invalidParameter('order must be chronological or reverse_chronological.');
  const after = url.searchParams.get('after');
  const from = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
  if (!Number.isInteger(from) || from < 0) return invalidParameter('The after cursor is invalid.');
  await receiveInbound(deps.store, page);
  const read = await withListingFaults(deps, { platform: 'facebook', accountId: page.id });
  if (read instanceof Response) return read;
  const newest = await deps.store.listReplies(post.id, { createdUpTo: read.createdUpTo, limit: 1_000 });
  if (filter === 'stream') {
    // Every level, in time order: the replies under comments too, each naming its `parent`.
    for (let i = 0; i < newest.length && newest.length < 1_000; i++)
      newest.push(...(await deps.store.listReplies(newest[i]!.id, { createdUpTo: read.createdUpTo, limit: 100 })));
    newest.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }
  const all = order === 'reverse_chronological' ? newest : [...newest].reverse();
  const fields = new Set((url.searchParams.get('fields') ?? 'created_time,message,id').split(',').filter(Boolean));
  const data = [];
  for (const comment of all.slice(from, from + limit)) {
    const author = (await deps.store.getAccountById(comment.accountId))!;
    const shown: Record<string, unknown> = {
      id: `${post.id}_${comment.id}`,
      message: comment.text,
      created_time: graphTime(comment.createdAt),
      from: { id: author.platformUserId, name: author.displayName ?? author.handle },
      ...(comment.inReplyToId !== post.id ? { parent: { id: `${post.id}_${comment.inReplyToId}` } } : {}),
    };
    data.push(Object.fromEntries(Object.entries(shown).filter(([k]) => k === 'id' || fields.has(k))));
  }
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
  const paging: Record<string, unknown> = { cursors: { before: cursor(from), after: cursor(from + data.length) } };
  if (from + limit < all.length) {
    const next = new URL(url);
    next.searchParams.delete('access_token');
    next.searchParams.set('after', cursor(from + limit));
    paging.next = next.toString();
  }
  return json(200, { data, paging });
}
