import Link from 'next/link';
import { StatusBadge } from '@/components/posts/status-badge';
import { EmptyState } from '@/components/ui/empty-state';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listPosts } from '@/db/queries/posts';
import { requirePageWorkspace } from '@/lib/auth/session';
import { postStatus } from '@/lib/posts/serialize';

export const metadata = { title: 'Queue' };

export default async function QueuePage() {
  const { workspace, role } = await requirePageWorkspace();
  const rows = await listPosts(getDb(), { workspaceId: workspace.id, limit: 50 });
  return (
    <>
      <PageHeader
        title="Queue"
        description={`Scheduled, publishing and settled posts in ${workspace.name}.`}
        actions={role !== 'viewer' ? <Link href="/compose" className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-500">Compose</Link> : undefined}
      />
      {rows.length === 0 ? (
        <EmptyState
          title="Nothing scheduled yet"
          action={role !== 'viewer' ? <Link href="/compose" className="text-sm font-semibold text-indigo-700 hover:underline">Compose a post →</Link> : undefined}
        >
          Posts you schedule appear here, each with its state: scheduled, publishing, sent, or
          &ldquo;ambiguous — being verified&rdquo; while Postonce checks the platform.
        </EmptyState>
      ) : (
        <ul role="list" aria-label="Posts" className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {rows.map(({ post, deliveries }) => (
            <li key={post.id}>
              <Link href={`/posts/${post.id}`} className="flex items-start justify-between gap-4 px-4 py-3 hover:bg-slate-50">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-900">{post.text}</p>
                  <p className="text-xs text-slate-600"><LocalTime iso={post.scheduledAt.toISOString()} /> · {deliveries.map((d) => d.accountHandle).join(', ')}</p>
                </div>
                <StatusBadge status={postStatus(deliveries.map((d) => d.status))} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
