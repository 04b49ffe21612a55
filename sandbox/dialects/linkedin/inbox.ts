import { json, withListingFaults } from '@/sandbox/behaviour/faults';
import { receiveInbound } from '@/sandbox/behaviour/inbound';
import { bearerToken } from '@/sandbox/http/request';
import type { SandboxDeps, SandboxPost } from '@/sandbox/store/types';
import { accessDenied, error, invalidToken } from './errors';
import { actsAs } from './identity';
import { shareId } from './posts';

// The comments on an organization's posts, as LinkedIn's Comments API serves them (learn.microsoft.com/linkedin:
// Community Management, "Comments API"): GET /rest/socialActions/{share URN}/comments, newest first, `start`/`count`
// paging; the page's administrators read them (r_organization_social). Versioned like every /rest call.

const MAX_COUNT = 100;

export async function handleLinkedinInbox(request: Request, path: string, deps: SandboxDeps): Promise<Response | null> {
  const match = /^\/rest\/socialActions\/([^/]+)\/comments$/.exec(path);
  if (!match || request.method !== 'GET') return null;
  const token = bearerToken(request);
  const member = token ? await deps.store.authenticate('linkedin', token) : null;
  if (!member) return invalidToken();
  if (!request.headers.get('linkedin-version'))
    return error(
      400,
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      'VERSION_MISSING',
    );
  const urn = decodeURIComponent(match[1]!);
  const id = shareId(urn);
  if (!id) return error(400, `Invalid URN: ${urn}`, 'INVALID_URN');
  const post = await deps.store.getPost(id);
  const author = post ? await deps.store.getAccountById(post.accountId) : null;
  if (!post || !author || author.platform !== 'linkedin' || post.deletedAt) return error(404, 'Not Found');
  if (
    !author.platformUserId.startsWith('urn:li:organization:') ||
    !actsAs(member.platformUserId, author.platformUserId)
  )
    return accessDenied('Not enough permissions to access: socialActions.comments.GET');
  const query = new URL(request.url).searchParams;
  const start = Number(query.get('start') ?? 0);
  const count = Number(query.get('count') ?? 10);
  if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    return error(400, 'start and count must be whole numbers (count 1 to 100)', 'ILLEGAL_ARGUMENT');
  await receiveInbound(deps.store, author);
  const read = await withListingFaults(deps, { platform: 'linkedin', accountId: author.id });
  if (read instanceof Response) return read;
  const all = await deps.store.listReplies(post.id, { createdUpTo: read.createdUpTo, limit: 1_000 });
  const elements = [];
  for (const comment of all.slice(start, start + count)) elements.push(await commentJson(comment, urn, deps));
  return json(200, { elements, paging: { start, count, total: all.length, links: [] } });
}

async function commentJson(comment: SandboxPost, object: string, deps: SandboxDeps) {
  const actor = (await deps.store.getAccountById(comment.accountId))!.platformUserId;
  const at = comment.createdAt.getTime();
  const urn = `urn:li:comment:(${object},${comment.id})`;
  return {
    $URN: urn,
    commentUrn: urn,
    id: comment.id,
    actor,
    object,
    message: { text: comment.text, attributes: [] },
    created: { actor, time: at },
    lastModified: { actor, time: at },
  };
}
