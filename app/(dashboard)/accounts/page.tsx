import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { AccountList } from '@/components/accounts/account-list';
import { ConnectAccounts } from '@/components/accounts/connect-accounts';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { queryKeys } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readAccounts } from '@/lib/reads/accounts';
import {
  checkAccountConnectionAction,
  connectAccountAction,
  connectSandboxAccountAction,
  disconnectAccountAction,
} from './actions';

export const metadata = { title: 'Accounts' };

export default async function AccountsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const canManage = can(role, 'manageAccounts');
  const queryClient = getServerQueryClient();
  await queryClient.prefetchQuery({
    queryKey: queryKeys.accountsWithDisconnected(workspace.id),
    queryFn: () => readAccounts(getDb(), { workspaceId: workspace.id }),
  });
  return (
    <>
      <PageHeader
        title="Accounts"
        description={
          canManage
            ? 'Social accounts this workspace publishes to.'
            : 'Social accounts this workspace publishes to. Only admins can connect or disconnect accounts.'
        }
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <div className="space-y-8">
          <AccountList
            workspaceId={workspace.id}
            canManage={canManage}
            actions={{ checkConnection: checkAccountConnectionAction, disconnect: disconnectAccountAction }}
          />
          {canManage && (
            <ConnectAccounts
              workspaceId={workspace.id}
              sandboxEnabled={getEnv().sandboxEnabled}
              actions={{
                connectSandbox: connectSandboxAccountAction,
                connect: connectAccountAction,
              }}
            />
          )}
        </div>
      </HydrationBoundary>
    </>
  );
}
