'use client';

import { useQuery } from '@tanstack/react-query';
import { useActionState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormStatus } from '@/components/ui/form-status';
import { useRefreshOnSuccess } from '@/components/ui/use-refresh-on-success';
import type { FormAction } from '@/lib/auth/action';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import type { AccountListItem } from '@/lib/reads/accounts';

type Account = AccountListItem;
export type AccountRowActions = { checkConnection: FormAction; disconnect: FormAction };

export function AccountList({
  workspaceId,
  canManage = false,
  actions,
}: {
  workspaceId: string;
  canManage?: boolean;
  actions: AccountRowActions;
}) {
  const { data: accounts = [] } = useQuery({
    queryKey: queryKeys.accountsWithDisconnected(workspaceId),
    queryFn: () => getJson<AccountListItem[]>(readUrls.accounts()),
  });
  const connected = accounts.filter((a) => !a.disconnectedAt);
  const disconnected = accounts.filter((a) => a.disconnectedAt);
  return (
    <div className="space-y-6">
      {connected.length === 0 ? (
        <EmptyState title="No accounts connected">
          Connect a sandbox, X or Mastodon account to start scheduling.
        </EmptyState>
      ) : (
        <ul
          role="list"
          aria-label="Connected accounts"
          className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
        >
          {connected.map((a) => (
            <AccountRow key={a.id} account={a} workspaceId={workspaceId} canManage={canManage} actions={actions} />
          ))}
        </ul>
      )}
      {disconnected.length > 0 && (
        <section aria-labelledby="disconnected-accounts">
          <h2 id="disconnected-accounts" className="mb-2 text-sm font-semibold text-slate-700">
            Disconnected (history kept)
          </h2>
          <ul
            role="list"
            aria-label="Disconnected accounts"
            className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200"
          >
            {disconnected.map((a) => (
              <li key={a.id} className="flex items-center justify-between gap-4 px-4 py-3 text-sm text-slate-600">
                <span>
                  {a.displayName ?? a.handle} · {a.handle}
                </span>
                <span>disconnected {new Date(a.disconnectedAt!).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function AccountRow({
  account: a,
  workspaceId,
  canManage,
  actions,
}: {
  account: Account;
  workspaceId: string;
  canManage: boolean;
  actions: AccountRowActions;
}) {
  const [check, checkAction, checking] = useActionState(actions.checkConnection, undefined);
  const [disconnect, disconnectAction, disconnecting] = useActionState(actions.disconnect, undefined);
  useRefreshOnSuccess(disconnect, queryKeys.accounts(workspaceId));
  return (
    <li className="space-y-2 px-4 py-3" aria-label={a.handle}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm font-semibold text-slate-900">{a.displayName ?? a.handle}</p>
          <p className="text-sm text-slate-600">{a.handle}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="blue">{PROVIDER_LABEL[a.provider]}</Badge>
          {a.sandbox && <Badge tone="violet">sandbox</Badge>}
          <span className="text-xs text-slate-500" title="Only the last four characters of the token are ever shown">
            token …{a.tokenLast4}
          </span>
          {canManage && (
            <>
              <form action={checkAction}>
                <input type="hidden" name="accountId" value={a.id} />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={checking}
                  aria-label={`Check connection of ${a.handle}`}
                >
                  {checking ? 'Checking…' : 'Check connection'}
                </Button>
              </form>
              <form action={disconnectAction}>
                <input type="hidden" name="accountId" value={a.id} />
                <Button type="submit" variant="danger" disabled={disconnecting} aria-label={`Disconnect ${a.handle}`}>
                  Disconnect
                </Button>
              </form>
            </>
          )}
        </div>
      </div>
      <FormStatus state={check ?? disconnect} />
    </li>
  );
}
