import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { AccountList } from '@/components/accounts/account-list';
import { ConnectAccounts } from '@/components/accounts/connect-accounts';
import { OAuthResult } from '@/components/accounts/oauth-result';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { oauthClientOf } from '@/lib/oauth/endpoints';
import { oauthResultMessage } from '@/lib/oauth/result-message';
import { providerDefinition } from '@/lib/providers';
import { PROVIDER_NAMES } from '@/lib/providers/catalog';
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

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function AccountsPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace, role } = await requirePageWorkspace();
  const canManage = can(role, 'manageAccounts');
  const env = getEnv();
  const query = await searchParams;
  const result = await oauthResultMessage(getDb(), {
    workspaceId: workspace.id,
    oauth: first(query.oauth),
    accounts: first(query.accounts),
    network: first(query.network),
  });
  // Booleans only: which networks' real OAuth clients are set up (their ids and secrets stay on the server).
  const oauthConfigured = Object.fromEntries(
    PROVIDER_NAMES.map((p) => {
      const config = providerDefinition(p).oauth;
      return [p, config !== null && oauthClientOf(config, env) !== null];
    }),
  );
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
          {result && <OAuthResult ok={result.ok} message={result.message} />}
          <AccountList
            workspaceId={workspace.id}
            canManage={canManage}
            actions={{ checkConnection: checkAccountConnectionAction, disconnect: disconnectAccountAction }}
            reconnect={{ oauth: oauthConfigured, sandbox: env.sandboxEnabled }}
          />
          {canManage && (
            <ConnectAccounts
              workspaceId={workspace.id}
              sandboxEnabled={env.sandboxEnabled}
              oauthConfigured={oauthConfigured}
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
