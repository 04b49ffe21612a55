import { getDb } from '@/db/client';
import { apiHandler, readKeyedRequest } from '@/lib/api/handler';
import { editPost } from '@/lib/posts/edit';
import { editPostRequestSchema } from '@/lib/posts/schemas';
import { getPost, isPostId } from '@/lib/posts/get';
import { editPostResponse, getPostResponse, notFound } from '../http';

export const dynamic = 'force-dynamic';

export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) =>
  getPostResponse(await getPost(getDb(), { workspaceId: principal.workspaceId, postId: id })),
);

/** Edit text, time or targets while nothing is claimed yet (Idempotency-Key required; the answer is stored and replayed). */
export const PATCH = apiHandler<{ id: string }>('posts:write', async (request, principal, { id }) => {
  if (!isPostId(id)) return notFound();
  const input = await readKeyedRequest(request, editPostRequestSchema);
  if (!input.ok) return input.response;
  const result = await editPost(getDb(), {
    workspaceId: principal.workspaceId,
    postId: id,
    changes: input.data,
    actor: `api_key:${principal.apiKeyId}`,
    idempotencyKey: input.key,
  });
  return editPostResponse(result);
});
