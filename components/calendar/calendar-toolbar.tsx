'use client';

import type { ReactNode } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { statusLabel } from '@/components/posts/status-badge';
import { inputClass } from '@/components/ui/field';
import { shiftAnchor, type CalendarView } from '@/lib/calendar/grid';
import type { CalendarFilters } from '@/lib/reads/calendar';

const STATUSES = [
  'awaiting_approval',
  'scheduled',
  'publishing',
  'ambiguous',
  'needs_review',
  'sent',
  'failed',
  'missed',
  'canceled',
];

export type CalendarLocation = { view: CalendarView; date: string } & CalendarFilters;

/** A calendar URL: view, date and filters are search parameters, so any view can be linked. */
export function calendarHref(location: CalendarLocation): string {
  const params = new URLSearchParams({ view: location.view, date: location.date });
  if (location.account) params.set('account', location.account);
  if (location.status) params.set('status', location.status);
  return `/calendar?${params}`;
}

type Props = {
  location: CalendarLocation;
  title: string;
  today: string;
  timeZone: string;
  workspaceTimeZone: string;
  accounts: { id: string; handle: string; displayName: string | null }[];
  /** More controls on the title's row, before the view switch (the bulk actions' "Select posts"). */
  actions?: ReactNode;
};

const linkClass =
  'rounded-md px-3 py-1.5 text-sm font-semibold ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600';

export function CalendarToolbar({ location, title, today, timeZone, workspaceTimeZone, accounts, actions }: Props) {
  const router = useRouter();
  const unit = location.view === 'month' ? 'month' : 'week';
  const go = (change: Partial<CalendarLocation>) => router.push(calendarHref({ ...location, ...change }));
  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Link
            href={calendarHref({ ...location, date: shiftAnchor(location.view, location.date, -1) })}
            className={linkClass}
            aria-label={`Previous ${unit}`}
          >
            ‹
          </Link>
          <Link href={calendarHref({ ...location, date: today })} className={linkClass}>
            Today
          </Link>
          <Link
            href={calendarHref({ ...location, date: shiftAnchor(location.view, location.date, 1) })}
            className={linkClass}
            aria-label={`Next ${unit}`}
          >
            ›
          </Link>
          <h2 className="ml-2 text-lg font-semibold text-slate-900" id="calendar-title" tabIndex={-1}>
            {title}
          </h2>
        </div>
        <div className="flex items-center gap-3">
          {actions}
          <nav aria-label="Calendar view" className="flex gap-1">
            {(['month', 'week'] as const).map((view) => (
              <Link
                key={view}
                href={calendarHref({ ...location, view })}
                aria-current={location.view === view ? 'page' : undefined}
                className={`${linkClass} ${location.view === view ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700'}`}
              >
                {view === 'month' ? 'Month' : 'Week'}
              </Link>
            ))}
          </nav>
        </div>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap gap-3">
          <label className="text-sm font-medium text-slate-900">
            Account
            <select
              value={location.account ?? ''}
              onChange={(e) => go({ account: e.target.value || undefined })}
              className={`${inputClass} w-56!`}
            >
              <option value="">All accounts</option>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.displayName ? `${a.displayName} (${a.handle})` : a.handle}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-slate-900">
            Status
            <select
              value={location.status ?? ''}
              onChange={(e) => go({ status: (e.target.value || undefined) as CalendarFilters['status'] })}
              className={`${inputClass} w-56!`}
            >
              <option value="">All statuses</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="text-xs text-slate-600" data-testid="calendar-zones">
          Times in your time zone, <strong>{timeZone}</strong>
          {workspaceTimeZone !== timeZone && (
            <>
              {' '}
              · workspace time zone: <strong>{workspaceTimeZone}</strong>
            </>
          )}
        </p>
      </div>
    </div>
  );
}
