import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import Link from 'next/link';
import { QueueList } from '@/components/queue/queue-list';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getDb } from '@/db/client';
import { queryKeys } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readQueue } from '@/lib/reads/queue';
import { listAccounts } from '@/db/queries/accounts';
import { listSnippets } from '@/db/queries/library';
import { bulkEditAction } from '../bulk-actions';
import { cancelPostAction } from './actions';

export const metadata = { title: 'Queue' };

export default async function QueuePage() {
  const { workspace, role } = await requirePageWorkspace();
  const [accounts, snippets] = await Promise.all([
    listAccounts(getDb(), { workspaceId: workspace.id }),
    listSnippets(getDb(), { workspaceId: workspace.id }),
  ]);
  const queryClient = getServerQueryClient();
  const items = await queryClient.fetchQuery({
    queryKey: queryKeys.queue(workspace.id),
    queryFn: () => readQueue(getDb(), { workspaceId: workspace.id }),
  });
  return (
    <>
      <PageHeader
        title="Queue"
        description={`Scheduled, publishing and settled posts in ${workspace.name}.`}
        actions={
          <div className="flex items-center gap-2">
            <Link
              href="/calendar"
              className="rounded-md px-3.5 py-2 text-sm font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
            >
              Open calendar
            </Link>
            {can(role, 'compose') ? (
              <Link
                href="/compose"
                className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
              >
                Compose
              </Link>
            ) : null}
          </div>
        }
      />
      {items.length === 0 ? (
        <EmptyState
          title="Nothing scheduled yet"
          action={
            can(role, 'compose') ? (
              <Link href="/compose" className="text-sm font-semibold text-indigo-700 hover:underline">
                Compose a post →
              </Link>
            ) : undefined
          }
        >
          Posts you schedule appear here grouped by day, each with its state: scheduled, publishing, sent, or
          &ldquo;ambiguous — being verified&rdquo; while Semel checks the platform.
        </EmptyState>
      ) : (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <QueueList
            workspaceId={workspace.id}
            canEdit={can(role, 'edit')}
            canCancel={can(role, 'cancel')}
            cancelAction={cancelPostAction}
            bulk={
              can(role, 'edit')
                ? {
                    action: bulkEditAction,
                    accounts: accounts.filter((a) => !a.disconnectedAt).map((a) => ({ id: a.id, handle: a.handle })),
                    snippets: snippets.map((x) => ({ id: x.id, name: x.name })),
                  }
                : undefined
            }
          />
        </HydrationBoundary>
      )}
    </>
  );
}
