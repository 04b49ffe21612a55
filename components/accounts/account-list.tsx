'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchAccounts } from '@/app/(dashboard)/accounts/actions';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';

const PROVIDER_LABEL = { x: 'X', mastodon: 'Mastodon', bluesky: 'Bluesky' } as const;

export function AccountList({ workspaceId }: { workspaceId: string }) {
  const { data: accounts = [] } = useQuery({ queryKey: ['accounts', workspaceId], queryFn: () => fetchAccounts() });
  if (accounts.length === 0) {
    return <EmptyState title="No accounts connected">Connect a sandbox, X or Mastodon account to start scheduling.</EmptyState>;
  }
  return (
    <ul role="list" className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {accounts.map((a) => (
        <li key={a.id} className="flex items-center justify-between gap-4 px-4 py-3">
          <div>
            <p className="text-sm font-semibold text-slate-900">{a.displayName ?? a.handle}</p>
            <p className="text-sm text-slate-600">{a.handle}</p>
          </div>
          <div className="flex items-center gap-2">
            <Badge tone="blue">{PROVIDER_LABEL[a.provider]}</Badge>
            {a.sandbox && <Badge tone="violet">sandbox</Badge>}
            <span className="text-xs text-slate-500" title="Only the last four characters of the token are ever shown">token …{a.tokenLast4}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
