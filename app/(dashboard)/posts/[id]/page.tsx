import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { DeliveryTimelines } from '@/components/posts/delivery-timeline';
import { EditPostForm } from '@/components/posts/edit-post-form';
import { StatusBadge } from '@/components/posts/status-badge';
import { CancelButton } from '@/components/queue/cancel-button';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readPostDetail } from '@/lib/reads/post-detail';
import { cancelPostAction } from '../../queue/actions';
import { editPostAction } from './actions';

export const metadata = { title: 'Post' };

export default async function PostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { workspace, role } = await requirePageWorkspace();
  // Another workspace's post is a 404, like a missing one (I6).
  const post = await readPostDetail(getDb(), { workspaceId: workspace.id, postId: id });
  if (!post) notFound();
  const queryClient = getServerQueryClient();
  queryClient.setQueryData(queryKeys.post(id), post);
  const accounts = can(role, 'edit') ? await listAccounts(getDb(), { workspaceId: workspace.id }) : [];
  const editable =
    can(role, 'edit') &&
    post.deliveries.some((d) => d.status === 'scheduled') &&
    post.deliveries.every((d) => d.status === 'scheduled' || d.status === 'canceled');
  return (
    <>
      <PageHeader
        title={post.kind === 'dm' ? 'Direct message' : post.kind === 'reply' ? 'Reply' : 'Post'}
        description={
          <>
            Scheduled for <LocalTime iso={post.scheduledAt} /> · created from the{' '}
            {post.source === 'api' ? 'API' : 'composer'}
          </>
        }
        actions={
          <span className="flex items-center gap-3">
            {can(role, 'cancel') && post.deliveries.some((d) => d.status === 'scheduled') && (
              <CancelButton postId={post.id} action={cancelPostAction} />
            )}
            <StatusBadge status={post.status} />
          </span>
        }
      />
      <article className="mb-6 whitespace-pre-wrap rounded-lg bg-white p-6 text-slate-900 shadow-sm ring-1 ring-slate-200">
        {post.text}
      </article>
      {post.inReplyTo && <p className="mb-4 text-sm text-slate-600">In reply to {post.inReplyTo}</p>}
      {post.recipient && <p className="mb-4 text-sm text-slate-600">To {post.recipient}</p>}
      <h2 className="mb-3 text-base font-semibold">Deliveries</h2>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <DeliveryTimelines postId={post.id} />
      </HydrationBoundary>
      {editable && (
        <div id="edit" className="mt-6 scroll-mt-4">
          <EditPostForm
            postId={post.id}
            text={post.text}
            action={editPostAction}
            accounts={accounts.map((a) => ({ id: a.id, handle: a.handle }))}
            targets={post.deliveries.filter((d) => d.status === 'scheduled').map((d) => d.accountId)}
          />
        </div>
      )}
      <p className="mt-4 text-xs text-slate-500">
        Idempotency key: <code>{post.idempotencyKey}</code>
      </p>
    </>
  );
}
