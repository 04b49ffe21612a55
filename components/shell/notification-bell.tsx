'use client';

import Link from 'next/link';
import { useState } from 'react';

const KIND_LABEL: Record<string, string> = {
  failed: 'Failed',
  reconnect: 'Reconnect needed',
  needs_review: 'Needs review',
  late_copy: 'A late copy appeared',
  post_approved: 'Approved',
  changes_requested: 'Changes requested',
  missed: 'Missed',
  approval_requested: 'Approval requested',
};

type Notification = { id: string; kind: string; message: string; unread: boolean; href: string };

/** Failed and needs-review deliveries, accounts to reconnect and approval decisions on your posts, with the unread count; opening the list marks them read. */
export function NotificationBell({
  unread,
  items,
  markRead,
}: {
  unread: number;
  items: Notification[];
  markRead: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={() => {
          setOpen(!open);
          if (!open && unread > 0) void markRead();
        }}
        className="relative rounded-md p-2 text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
      >
        <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8">
          <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0" />
        </svg>
        {unread > 0 && (
          <span className="absolute -right-1 -top-1 rounded-full bg-rose-600 px-1.5 text-xs font-semibold text-white">
            {unread}
          </span>
        )}
      </button>
      {open && (
        <div
          className="absolute right-0 z-10 mt-2 w-80 rounded-md bg-white p-2 shadow-lg ring-1 ring-slate-200"
          role="region"
          aria-label="Notifications"
        >
          {items.length === 0 ? (
            <p className="p-2 text-sm text-slate-600">Nothing needs your attention.</p>
          ) : (
            <ul role="list" className="divide-y divide-slate-100">
              {items.map((n) => (
                <li key={n.id}>
                  <Link
                    href={n.href}
                    className="block rounded p-2 text-sm hover:bg-slate-50"
                    onClick={() => setOpen(false)}
                  >
                    <span className={n.unread ? 'font-semibold' : ''}>{KIND_LABEL[n.kind] ?? 'Needs review'}</span>
                    <span className="block text-xs text-slate-600">{n.message}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
