import { getDb } from '@/db/client';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { apiHandler, json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { editPost } from '@/lib/posts/edit-post-request';
import { serializePost } from '@/lib/posts/serialize';
import { postId } from './contract';

export const dynamic = 'force-dynamic';

export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) => {
  // Another workspace's post is indistinguishable from a missing one (I6).
  const found = postId.safeParse(id).success ? await getPostWithDeliveries(getDb(), { workspaceId: principal.workspaceId, postId: id }) : null;
  if (!found) return problem({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' });
  return json(serializePost(found.post, found.deliveries));
});

/** Edit text, time or targets while nothing is claimed yet (Idempotency-Key required). */
export const PATCH = apiHandler<{ id: string }>('posts:write', async (request, principal, { id }) => {
  if (!postId.safeParse(id).success) return problem({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' });
  return editPost(getDb(), request, principal, id);
});
