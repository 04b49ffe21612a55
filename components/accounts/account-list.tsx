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
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import type { AccountListItem } from '@/lib/reads/accounts';
import { ProcessingAllowanceLine } from './processing-allowance';

type Account = AccountListItem;
export type AccountRowActions = { checkConnection: FormAction; disconnect: FormAction };
/** Which networks can reconnect through sign-in here: their real OAuth (configured) and the sandbox's. */
export type ReconnectOptions = { oauth: Partial<Record<ProviderName, boolean>>; sandbox: boolean };

export function AccountList({
  workspaceId,
  canManage = false,
  actions,
  reconnect = { oauth: {}, sandbox: false },
}: {
  workspaceId: string;
  canManage?: boolean;
  actions: AccountRowActions;
  reconnect?: ReconnectOptions;
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
            <AccountRow
              key={a.id}
              account={a}
              workspaceId={workspaceId}
              canManage={canManage}
              actions={actions}
              reconnect={reconnect}
            />
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
  reconnect,
}: {
  account: Account;
  workspaceId: string;
  canManage: boolean;
  actions: AccountRowActions;
  reconnect: ReconnectOptions;
}) {
  const [check, checkAction, checking] = useActionState(actions.checkConnection, undefined);
  const [disconnect, disconnectAction, disconnecting] = useActionState(actions.disconnect, undefined);
  useRefreshOnSuccess(disconnect, queryKeys.accounts(workspaceId));
  return (
    <li className="space-y-2 px-4 py-3" aria-label={a.handle}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm font-semibold text-slate-900">{a.displayName ?? a.handle}</p>
          <p className="text-sm text-slate-600">
            {a.profileUrl ? (
              // The platform's own link to the account (Mastodon's `url`), never one built from the URL typed.
              <a
                href={a.profileUrl}
                className="underline hover:text-slate-900"
                rel="noopener noreferrer"
                target="_blank"
              >
                {a.handle}
              </a>
            ) : (
              a.handle
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="blue">{PROVIDER_LABEL[a.provider]}</Badge>
          {a.sandbox && <Badge tone="violet">sandbox</Badge>}
          {a.needsReconnect && <Badge tone="red">Needs reconnect</Badge>}
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
      <ProcessingAllowanceLine allowance={a.processingAllowance} />
      {PROVIDER_META[a.provider].accountNote && (
        <p className="text-xs text-slate-600">{PROVIDER_META[a.provider].accountNote}</p>
      )}
      {a.needsReconnect && <TokenProblem account={a} canManage={canManage} reconnect={reconnect} />}
      <FormStatus state={check ?? disconnect} />
    </li>
  );
}

/** Why the account needs a reconnect, what it holds meanwhile, and the way back (sign-in again, or the connect form). */
function TokenProblem({
  account: a,
  canManage,
  reconnect,
}: {
  account: Account;
  canManage: boolean;
  reconnect: ReconnectOptions;
}) {
  const meta = PROVIDER_META[a.provider];
  const viaOAuth = meta.connect.oauth && (a.sandbox ? reconnect.sandbox : reconnect.oauth[a.provider] === true);
  const href = viaOAuth
    ? `/api/oauth/${a.provider}/start?account=${a.id}${a.sandbox ? '&sandbox=1' : ''}`
    : meta.connect.fields.length > 0
      ? `#connect-${a.provider}`
      : null;
  const held = a.scheduled;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
      <p>
        {a.tokenProblem ? `Its token needs a reconnect: ${a.tokenProblem}` : 'Its access token has expired.'}{' '}
        <strong>
          {held === 0
            ? 'No scheduled posts are held.'
            : `${held} scheduled post${held === 1 ? ' is' : 's are'} held until you reconnect.`}
        </strong>
      </p>
      {canManage && href && (
        <a
          href={href}
          aria-label={`Reconnect ${a.handle}`}
          className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Reconnect
        </a>
      )}
    </div>
  );
}
