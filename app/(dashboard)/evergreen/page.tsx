import { EvergreenQueueCard, NewQueueForm } from '@/components/evergreen/evergreen-queues';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { listQueueItemsWithCounts, listQueues } from '@/db/queries/evergreen';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { addItemAction, createQueueAction, editItemAction, itemAction, setPausedAction } from './actions';

export const metadata = { title: 'Evergreen' };

export default async function EvergreenPage() {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const db = getDb();
  const [queues, accounts] = await Promise.all([
    listQueues(db, { workspaceId: workspace.id }),
    listAccounts(db, { workspaceId: workspace.id }),
  ]);
  const items = await listQueueItemsWithCounts(db, { workspaceId: workspace.id, queueIds: queues.map((q) => q.id) });
  const handle = new Map(accounts.map((a) => [a.id, a.handle]));
  return (
    <>
      <PageHeader
        title="Evergreen"
        description="Posts that recycle into your accounts’ posting slots: each once per cycle, one at a time."
      />
      <div className="space-y-6">
        {queues.map((q) => (
          <EvergreenQueueCard
            key={q.id}
            queue={{
              id: q.id,
              name: q.name,
              accounts: q.accountIds.map((id) => handle.get(id) ?? 'an account removed'),
              minGapDays: q.minGapDays,
              paused: q.paused,
              cycle: q.cycle,
              lastError: q.lastError,
            }}
            items={items.filter((i) => i.queueId === q.id)}
            actions={{ addItem: addItemAction, editItem: editItemAction, setPaused: setPausedAction, item: itemAction }}
          />
        ))}
        <NewQueueForm
          action={createQueueAction}
          accounts={accounts.filter((a) => !a.disconnectedAt).map((a) => ({ id: a.id, handle: a.handle }))}
        />
      </div>
    </>
  );
}
