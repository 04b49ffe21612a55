import { getDb } from '@/db/client';
import { createPost } from '@/lib/posts/create-post-request';
import { apiHandler, json } from '@/lib/api/handler';
import { listPostsRequest } from '@/lib/posts/list-posts-request';

export const dynamic = 'force-dynamic';

/** Create a post, exactly once per Idempotency-Key (docs/architecture.md#inbound-idempotency). */
export const POST = apiHandler('posts:write', async (request, principal) => createPost(getDb(), request, principal));

/** List posts, newest first: ?status=&account=&cursor=&limit= */
export const GET = apiHandler('posts:read', async (request, principal) => {
  const result = await listPostsRequest(getDb(), new URL(request.url).searchParams, principal.workspaceId);
  return result instanceof Response ? result : json(result);
});
