'use client';

import { INBOX_ITEM_KINDS } from '@/lib/inbox/kinds';
import type { InboxPage } from '@/lib/inbox/list';
import { PROVIDER_META, PROVIDER_NAMES } from '@/lib/providers/catalog';
import type { InboxQuery } from '@/lib/query/keys';

const STATUSES = [
  { id: 'unanswered', label: 'Unanswered' },
  { id: 'answered', label: 'Answered' },
  { id: 'done', label: 'Done' },
  { id: 'all', label: 'All' },
] as const;

const KIND_LABELS: Record<(typeof INBOX_ITEM_KINDS)[number], string> = {
  reply: 'Replies',
  comment: 'Comments',
  mention: 'Mentions',
  dm: 'Direct messages',
};

const select = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';
const count = (n: number | undefined) => (n === undefined ? '' : n >= 1000 ? ' (1,000+)' : ` (${n})`);

/** Status tabs with their counts, and the account, network, kind and "assigned to me" filters. */
export function InboxFilters({
  query,
  counts,
  accounts,
  onChange,
}: {
  query: InboxQuery;
  counts?: InboxPage['counts'];
  accounts: { id: string; label: string }[];
  onChange: (query: InboxQuery) => void;
}) {
  const status = query.status ?? 'unanswered';
  const set = (patch: Partial<InboxQuery>) => onChange({ ...query, ...patch });
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Status" className="flex flex-wrap gap-1">
        {STATUSES.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-pressed={status === s.id}
            onClick={() => set({ status: s.id })}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${status === s.id ? 'bg-indigo-600 text-white' : 'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50'}`}
          >
            {s.label}
            {s.id !== 'all' && count(counts?.[s.id])}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label className="text-sm text-slate-700">
          <span className="sr-only">Account</span>
          <select
            className={select}
            value={query.account ?? ''}
            onChange={(e) => set({ account: e.target.value || undefined })}
          >
            <option value="">All accounts</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-700">
          <span className="sr-only">Network</span>
          <select
            className={select}
            value={query.network ?? ''}
            onChange={(e) => set({ network: e.target.value || undefined })}
          >
            <option value="">All networks</option>
            {PROVIDER_NAMES.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_META[p].label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-slate-700">
          <span className="sr-only">Kind</span>
          <select
            className={select}
            value={query.kind ?? ''}
            onChange={(e) => set({ kind: e.target.value || undefined })}
          >
            <option value="">All kinds</option>
            {INBOX_ITEM_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={query.assignedTo === 'me'}
            onChange={(e) => set({ assignedTo: e.target.checked ? 'me' : undefined })}
          />
          Assigned to me
        </label>
      </div>
    </div>
  );
}
