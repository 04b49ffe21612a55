import { getDb } from '@/db/client';
import { apiHandler } from '@/lib/api/handler';
import { cancelPost } from '@/lib/posts/cancel';
import { cancelPostResponse } from '../../http';

export const dynamic = 'force-dynamic';

/**
 * Idempotent: cancels the deliveries still `scheduled`; repeating it changes nothing. Deliveries already
 * publishing or settled are left alone and reported with their state (409 when none could be canceled).
 */
export const POST = apiHandler<{ id: string }>('posts:write', async (_request, principal, { id }) =>
  cancelPostResponse(
    await cancelPost(getDb(), {
      workspaceId: principal.workspaceId,
      postId: id,
      actor: `api_key:${principal.apiKeyId}`,
    }),
  ),
);
