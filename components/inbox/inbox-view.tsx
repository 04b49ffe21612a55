'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import type { InboxPage } from '@/lib/inbox/list';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls, type InboxQuery } from '@/lib/query/keys';
import { Conversation } from './conversation';
import type { ConversationActions } from './inbox-actions';
import { InboxFilters } from './inbox-filters';
import { InboxList } from './inbox-list';
import { isTyping } from './keys';
import { useShortcuts } from './use-shortcuts';

/** New items appear without a reload: the list is read again this often. */
const LIST_POLL_MS = 5_000;

type Props = {
  initialQuery: InboxQuery;
  initialItem: string | null;
  accounts: { id: string; label: string }[];
  actions: ConversationActions;
};

/** The inbox: filters and the items on the left, the open conversation on the right; j/k move between items. */
export function InboxView({ initialQuery, initialItem, accounts, actions }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const [query, setQuery] = useState<InboxQuery>(initialQuery);
  const [selected, setSelected] = useState<string | null>(initialItem);
  const { data } = useQuery({
    queryKey: queryKeys.inbox(query),
    queryFn: () => getJson<InboxPage>(readUrls.inbox(query)),
    refetchInterval: LIST_POLL_MS,
  });
  const items = useMemo(() => data?.items ?? [], [data]);
  const [shortcuts, setShortcuts] = useShortcuts();

  useEffect(() => {
    const params = new URLSearchParams(
      Object.entries({ ...query, item: selected ?? undefined }).filter((e): e is [string, string] => !!e[1]),
    );
    router.replace(`${pathname}${params.size > 0 ? `?${params}` : ''}`, { scroll: false });
  }, [query, selected, pathname, router]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!shortcuts || isTyping(event) || (event.key !== 'j' && event.key !== 'k')) return;
      event.preventDefault();
      const at = items.findIndex((i) => i.id === selected);
      const next = event.key === 'j' ? Math.min(at + 1, items.length - 1) : Math.max(at - 1, 0);
      const item = items[at === -1 ? 0 : next];
      if (!item) return;
      setSelected(item.id);
      document.getElementById(`inbox-item-${item.id}`)?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items, selected, shortcuts]);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <section aria-label="Inbox items" className="min-w-0 space-y-3">
        <InboxFilters query={query} counts={data?.counts} accounts={accounts} onChange={setQuery} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={shortcuts}
            onChange={(e) => setShortcuts(e.target.checked)}
          />
          Single-key shortcuts (j, k, r, e)
        </label>
        <div className="lg:max-h-[calc(100vh-15rem)] lg:overflow-y-auto">
          <InboxList items={items} selected={selected} onSelect={setSelected} status={query.status ?? 'unanswered'} />
        </div>
      </section>
      <section aria-label="Conversation" className="min-w-0 lg:max-h-[calc(100vh-10rem)] lg:overflow-y-auto">
        {selected ? (
          <Conversation key={selected} itemId={selected} actions={actions} shortcuts={shortcuts} />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600">
            Choose an item to read its conversation and answer it.
          </p>
        )}
      </section>
    </div>
  );
}
