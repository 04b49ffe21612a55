import { ScheduleEditor } from '@/components/slots/schedule-editor';
import { EmptyState } from '@/components/ui/empty-state';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getAccountSchedule } from '@/lib/slots/account-schedule';
import { saveScheduleAction } from './actions';

export const metadata = { title: 'Posting slots' };

/** The runtime's IANA zones, with UTC always among them. */
const zones = () => [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

export default async function PostingSlotsPage() {
  const { workspace, allowed } = await requirePageWorkspace('manageAccounts');
  if (!allowed) return <Forbidden capability="manageAccounts" />;
  const accounts = await listAccounts(getDb(), { workspaceId: workspace.id });
  const schedules = await Promise.all(
    accounts.map((a) => getAccountSchedule(getDb(), { workspaceId: workspace.id, accountId: a.id })),
  );
  return (
    <>
      <PageHeader
        title="Posting slots"
        description="Each account's weekly times, in its own time zone. “Add to queue” puts a post in the next free slot; two posts never share one."
      />
      {accounts.length === 0 ? (
        <EmptyState title="No accounts yet">Connect an account under Accounts, then give it posting slots.</EmptyState>
      ) : (
        <div className="space-y-6">
          {accounts.map((a, i) => {
            const found = schedules[i]!;
            if (found.kind !== 'ok') return null;
            return (
              <ScheduleEditor
                key={a.id}
                account={{ id: a.id, handle: a.handle, provider: a.provider, displayName: a.displayName }}
                schedule={found.schedule}
                zones={zones()}
                action={saveScheduleAction}
              />
            );
          })}
        </div>
      )}
    </>
  );
}
