import { getDb } from '@/db/client';
import { readPostMetrics } from '@/lib/analytics/post-history';
import { apiHandler, json } from '@/lib/api/handler';
import { getEnv } from '@/lib/env';
import { isPostId } from '@/lib/posts/get';
import { notFound } from '../../http';

export const dynamic = 'force-dynamic';

export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) => {
  if (!isPostId(id)) return notFound();
  const deliveries = await readPostMetrics(getDb(), {
    workspaceId: principal.workspaceId,
    postId: id,
    delaysMs: getEnv().ANALYTICS_READ_DELAYS_MS,
  });
  // A post always has deliveries: none means it is not this workspace's (I6), or does not exist.
  if (deliveries.length === 0) return notFound();
  return json({ postId: id, deliveries });
});
