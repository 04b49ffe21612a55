import { notFound } from 'next/navigation';
import { z } from 'zod';
import { EditPostForm } from '@/components/posts/edit-post-form';
import { StatusBadge } from '@/components/posts/status-badge';
import { CancelButton } from '@/components/queue/cancel-button';
import { cancelPostAction } from '../../queue/actions';
import { editPostAction } from './actions';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { requirePageWorkspace } from '@/lib/auth/session';
import { postStatus } from '@/lib/posts/serialize';

export const metadata = { title: 'Post' };

export default async function PostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { workspace, role } = await requirePageWorkspace();
  // Another workspace's post is a 404, like a missing one (I6).
  const found = z.uuid().safeParse(id).success ? await getPostWithDeliveries(getDb(), { workspaceId: workspace.id, postId: id }) : null;
  if (!found) notFound();
  const { post, deliveries } = found;
  return (
    <>
      <PageHeader
        title={post.kind === 'dm' ? 'Direct message' : post.kind === 'reply' ? 'Reply' : 'Post'}
        description={<>Scheduled for <LocalTime iso={post.scheduledAt.toISOString()} /> · created from the {post.source === 'api' ? 'API' : 'composer'}</>}
        actions={
          <span className="flex items-center gap-3">
            {role !== 'viewer' && deliveries.some((d) => d.status === 'scheduled') && <CancelButton postId={post.id} action={cancelPostAction} />}
            <StatusBadge status={postStatus(deliveries.map((d) => d.status))} />
          </span>
        }
      />
      <article className="mb-6 whitespace-pre-wrap rounded-lg bg-white p-6 text-slate-900 shadow-sm ring-1 ring-slate-200">{post.text}</article>
      {post.inReplyTo && <p className="mb-4 text-sm text-slate-600">In reply to {post.inReplyTo}</p>}
      {post.recipient && <p className="mb-4 text-sm text-slate-600">To {post.recipient}</p>}
      <h2 className="mb-2 text-base font-semibold">Deliveries</h2>
      <ul role="list" className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        {deliveries.map((d) => (
          <li key={d.id} className="flex items-center justify-between gap-4 px-4 py-3" data-testid="delivery">
            <span className="text-sm font-medium">{d.accountHandle}</span>
            <span className="flex items-center gap-3">
              {d.url && <a href={d.url} className="text-sm text-indigo-700 underline" target="_blank" rel="noreferrer">View on platform</a>}
              {d.failureReason && <span className="text-sm text-rose-700">{d.failureReason}</span>}
              <StatusBadge status={d.status} />
            </span>
          </li>
        ))}
      </ul>
      {role !== 'viewer' && deliveries.every((d) => d.status === 'scheduled' || d.status === 'canceled') && deliveries.some((d) => d.status === 'scheduled') && (
        <div className="mt-6"><EditPostForm postId={post.id} text={post.text} action={editPostAction} /></div>
      )}
      <p className="mt-4 text-xs text-slate-500">Idempotency key: <code>{post.idempotencyKey}</code></p>
    </>
  );
}
