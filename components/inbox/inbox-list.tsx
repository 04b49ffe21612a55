'use client';

import { Badge } from '@/components/ui/badge';
import { LocalTime } from '@/components/ui/local-time';
import type { InboxItemJson } from '@/lib/inbox/list';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { KIND_NAMES, StatusBadge } from './item-status';

/** The items, newest first; the open one is marked current. Each is a button: Enter opens it, j/k move. */
export function InboxList({
  items,
  selected,
  onSelect,
  status,
}: {
  items: InboxItemJson[];
  selected: string | null;
  onSelect: (id: string) => void;
  status: string;
}) {
  if (items.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
        {status === 'unanswered'
          ? 'Nothing waiting for an answer. New messages appear here as they arrive.'
          : 'No items here.'}
      </p>
    );
  return (
    <ul
      role="list"
      aria-label="Items"
      className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
    >
      {items.map((item) => (
        <li key={item.id}>
          <button
            id={`inbox-item-${item.id}`}
            type="button"
            aria-current={item.id === selected ? 'true' : undefined}
            onClick={() => onSelect(item.id)}
            className={`block w-full px-4 py-3 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 ${item.id === selected ? 'bg-indigo-50' : 'hover:bg-slate-50'}`}
          >
            <span className="flex items-baseline justify-between gap-3">
              <span className="truncate text-sm font-semibold text-slate-900">
                {item.author.name ?? item.author.handle}{' '}
                <span className="font-normal text-slate-600">{item.author.name ? item.author.handle : ''}</span>
              </span>
              <span className="shrink-0 text-xs text-slate-600">
                <LocalTime iso={item.receivedAt} />
              </span>
            </span>
            <span className="mt-1 line-clamp-2 text-sm text-slate-800">{item.text}</span>
            <span className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
              <Badge>{PROVIDER_META[item.account.network].label}</Badge>
              <span>
                {KIND_NAMES[item.kind]} to {item.account.handle}
              </span>
              <StatusBadge status={item.status} source={item.answerSource} />
              {item.assignedTo && <Badge tone="violet">Assigned to {item.assignedTo.name ?? 'a teammate'}</Badge>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
