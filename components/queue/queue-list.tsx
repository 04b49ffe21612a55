'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BulkBar } from '@/components/posts/bulk-bar';
import type { BulkOutcome } from '@/lib/posts/bulk';
import Link from 'next/link';
import { StatusBadge } from '@/components/posts/status-badge';
import { useTimeZone } from '@/components/ui/use-time-zone';
import type { FormAction } from '@/lib/auth/action';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import type { QueueItem } from '@/lib/reads/queue';
import { CancelButton } from './cancel-button';

const CHANGING = new Set(['scheduled', 'publishing', 'ambiguous', 'partial']);

/** Deliveries grouped by day in the viewer's zone; polls only while a row can still change on its own. */
type Props = {
  workspaceId: string;
  canEdit: boolean;
  canCancel: boolean;
  cancelAction: FormAction;
  /** Bulk actions on selected posts (editors only): the accounts and snippets they may name. */
  bulk?: {
    action: FormAction<BulkOutcome[]>;
    accounts: { id: string; handle: string }[];
    snippets: { id: string; name: string }[];
  };
};

export function QueueList({ workspaceId, canEdit, canCancel, cancelAction, bulk }: Props) {
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (postId: string) =>
    setSelected((current) => (current.includes(postId) ? current.filter((id) => id !== postId) : [...current, postId]));
  const timeZone = useTimeZone();
  const { data = [] } = useQuery({
    queryKey: queryKeys.queue(workspaceId),
    queryFn: () => getJson<QueueItem[]>(readUrls.queue()),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((p) =>
        p.deliveries.some(
          (d) =>
            CHANGING.has(d.status) && (d.status !== 'scheduled' || Date.parse(p.scheduledAt) < Date.now() + 60_000),
        ),
      )
        ? 1_500
        : 15_000,
  });
  const day = new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone,
  });
  const time = new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
  const groups = new Map<string, QueueItem[]>();
  for (const post of [...data].sort((a, b) => Date.parse(b.scheduledAt) - Date.parse(a.scheduledAt))) {
    const key = day.format(new Date(post.scheduledAt));
    groups.set(key, [...(groups.get(key) ?? []), post]);
  }
  return (
    <div className="space-y-8">
      {bulk && selected.length > 0 && (
        <BulkBar
          selected={selected.map((id) => ({ id, text: data.find((p) => p.id === id)?.text ?? id }))}
          onClear={() => setSelected([])}
          accounts={bulk.accounts}
          snippets={bulk.snippets}
          action={bulk.action}
        />
      )}
      {[...groups].map(([label, posts]) => (
        <section key={label} aria-label={label}>
          <h2 className="mb-2 text-sm font-semibold text-slate-600">{label}</h2>
          <ul
            role="list"
            aria-label="Posts"
            className="divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
          >
            {posts.map((post) => (
              <li key={post.id} className="px-4 py-3" data-testid="queue-row">
                <div className="flex items-start justify-between gap-4">
                  {bulk && (
                    <input
                      type="checkbox"
                      aria-label={`Select: ${post.text}`}
                      checked={selected.includes(post.id)}
                      onChange={() => toggle(post.id)}
                      className="mt-1 size-4 shrink-0"
                    />
                  )}
                  <Link href={`/posts/${post.id}`} className="min-w-0 flex-1 hover:underline">
                    <p className="truncate text-sm font-medium text-slate-900">{post.text}</p>
                    <p className="text-xs text-slate-600">
                      {time.format(new Date(post.scheduledAt))} · {post.kind}
                      {post.parts && ` of ${post.parts.length} parts`}
                    </p>
                  </Link>
                  {/* A thread can be changed only while it has not started (its first part not claimed). */}
                  {(canEdit || canCancel) &&
                    post.deliveries.some(
                      (d) => (d.status === 'scheduled' || d.status === 'awaiting_approval') && d.part === 0,
                    ) && (
                      <span className="flex shrink-0 items-center gap-2">
                        {canEdit && (
                          <Link
                            href={`/posts/${post.id}#edit`}
                            className="rounded-md px-3 py-2 text-sm font-semibold text-indigo-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
                            aria-label="Edit post"
                          >
                            Edit
                          </Link>
                        )}
                        {canCancel && <CancelButton postId={post.id} action={cancelAction} />}
                      </span>
                    )}
                </div>
                <ul className="mt-2 flex flex-wrap gap-3" aria-label="Deliveries">
                  {post.deliveries.map((d) => (
                    <li key={d.id} className="flex items-center gap-1.5 text-xs text-slate-700">
                      <span>{d.handle}</span>
                      {d.parts > 1 && (
                        <span data-testid="thread-progress">
                          {post.parts ? `part ${d.part + 1} of ${d.parts}` : d.part > 0 ? 'first comment' : 'post'}
                        </span>
                      )}
                      <StatusBadge status={d.status} />
                      {d.threadUrl && (
                        <a href={d.threadUrl} target="_blank" rel="noreferrer" className="text-indigo-700 underline">
                          View
                        </a>
                      )}
                      {d.status === 'failed' && d.failureReason && (
                        <span className="text-rose-700">{d.failureReason}</span>
                      )}
                      {d.held && (
                        <Link href="/accounts" className="text-rose-700 underline">
                          Held: reconnect {d.handle}
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
