import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { AccountList } from '@/components/accounts/account-list';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { requirePageWorkspace } from '@/lib/auth/session';
import { getServerQueryClient } from '@/lib/query/query-client';

export const metadata = { title: 'Accounts' };

export default async function AccountsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const queryClient = getServerQueryClient();
  await queryClient.prefetchQuery({
    queryKey: ['accounts', workspace.id],
    queryFn: () => listAccounts(getDb(), { workspaceId: workspace.id }),
  });
  return (
    <>
      <PageHeader
        title="Accounts"
        description={role === 'admin' ? 'Social accounts this workspace publishes to.' : 'Social accounts this workspace publishes to. Only admins can connect or disconnect accounts.'}
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <AccountList workspaceId={workspace.id} />
      </HydrationBoundary>
    </>
  );
}
