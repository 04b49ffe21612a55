import { getDb } from '@/db/client';
import { cancelScheduledDeliveries } from '@/db/queries/deliveries';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { apiHandler, json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { serializePost } from '@/lib/posts/serialize';
import { postId } from '../contract';

export const dynamic = 'force-dynamic';

/**
 * Idempotent: cancels the deliveries still `scheduled`; repeating it changes nothing. Deliveries already
 * publishing or settled are left alone and reported with their state (409 when none could be canceled).
 */
export const POST = apiHandler<{ id: string }>('posts:write', async (_request, principal, { id }) => {
  const db = getDb();
  const scope = { workspaceId: principal.workspaceId, postId: id };
  if (!postId.safeParse(id).success) return problem({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' });
  // Scoped by workspace, so a missing or another workspace's post cancels nothing and reads as 404.
  const canceled = await cancelScheduledDeliveries(db, { ...scope, actor: `api_key:${principal.apiKeyId}` });
  const after = await getPostWithDeliveries(db, scope);
  if (!after) return problem({ status: 404, title: 'Not Found', detail: 'No such post in this workspace.' });
  const body = serializePost(after.post, after.deliveries);
  const notCancelable = after.deliveries.filter((d) => d.status !== 'canceled');
  if (notCancelable.length > 0 && notCancelable.length === after.deliveries.length) {
    return problem({
      status: 409, title: 'Cannot cancel', detail: 'These deliveries are already publishing or settled; nothing was changed.',
      deliveries: notCancelable.map((d) => ({ id: d.id, accountId: d.accountId, status: d.status })),
    });
  }
  return json({ ...body, canceledDeliveryIds: canceled });
});
