import { getDb } from '@/db/client';
import { apiHandler, readKeyedRequest } from '@/lib/api/handler';
import { requestIdOf } from '@/lib/http/request-id';
import { createPost } from '@/lib/posts/create';
import { listPostPage } from '@/lib/posts/list';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { createPostResponse, listPostsResponse } from './http';

export const dynamic = 'force-dynamic';

/** Create a post, exactly once per Idempotency-Key (docs/architecture.md#inbound-idempotency): key check → body validation (not stored) → the use case. */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const input = await readKeyedRequest(request, createPostRequestSchema);
  if (!input.ok) return input.response;
  const result = await createPost(getDb(), input.data, {
    workspaceId: principal.workspaceId,
    source: 'api',
    idempotencyKey: input.key,
    actor: `api_key:${principal.apiKeyId}`,
    apiKeyId: principal.apiKeyId,
    requestId: requestIdOf(request.headers),
  });
  return createPostResponse(result);
});

/** List posts, newest first: ?status=&account=&cursor=&limit= */
export const GET = apiHandler('posts:read', async (request, principal) =>
  listPostsResponse(
    await listPostPage(getDb(), principal.workspaceId, Object.fromEntries(new URL(request.url).searchParams)),
  ),
);
