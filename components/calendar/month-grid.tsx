'use client';

import { useDroppable } from '@dnd-kit/core';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { PlacedPost } from './placement';

/** Chips shown in a month cell before "+N more" (the week view shows them all). */
const MONTH_CELL_CHIPS = 4;

type Props = {
  days: string[];
  month: string;
  today: string;
  locale: string;
  caption: string;
  postsByDay: Map<string, PlacedPost[]>;
  newPostHref: (date: string) => string | null;
  weekHref: (date: string) => string;
  renderChip: (placed: PlacedPost) => ReactNode;
};

/** Whole weeks around a month; each day is a drop target and offers "New post". */
export function MonthGrid({
  days,
  month,
  today,
  locale,
  caption,
  postsByDay,
  newPostHref,
  weekHref,
  renderChip,
}: Props) {
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const full = new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return (
    <table className="w-full table-fixed border-collapse overflow-hidden rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {weeks[0]!.map((d) => (
            <th key={d} scope="col" className="border-b border-slate-200 py-2 text-xs font-semibold text-slate-600">
              {weekday.format(new Date(`${d}T00:00:00Z`))}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((date) => (
              <DayCell
                key={date}
                date={date}
                label={full.format(new Date(`${date}T00:00:00Z`))}
                outside={!date.startsWith(month)}
                isToday={date === today}
                posts={postsByDay.get(date) ?? []}
                newPostHref={newPostHref(date)}
                moreHref={weekHref(date)}
                renderChip={renderChip}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type CellProps = {
  date: string;
  label: string;
  outside: boolean;
  isToday: boolean;
  posts: PlacedPost[];
  newPostHref: string | null;
  moreHref: string;
  renderChip: (placed: PlacedPost) => ReactNode;
};

function DayCell({ date, label, outside, isToday, posts, newPostHref, moreHref, renderChip }: CellProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `day:${date}` });
  const hidden = posts.length - MONTH_CELL_CHIPS;
  return (
    <td
      ref={setNodeRef}
      data-date={date}
      className={`group h-32 border border-slate-200 p-1 align-top ${outside ? 'bg-slate-50' : ''} ${isOver ? 'bg-indigo-50 ring-2 ring-indigo-400 ring-inset' : ''}`}
    >
      <div className="mb-1 flex items-center justify-between gap-1">
        <span
          aria-current={isToday ? 'date' : undefined}
          className={`inline-flex size-6 items-center justify-center rounded-full text-xs font-semibold ${isToday ? 'bg-indigo-600 text-white' : outside ? 'text-slate-400' : 'text-slate-700'}`}
        >
          <span aria-hidden="true">{Number(date.slice(8))}</span>
          <span className="sr-only">{label}</span>
        </span>
        {newPostHref && (
          <Link
            href={newPostHref}
            aria-label={`New post on ${label}`}
            className="rounded px-1 text-xs font-semibold text-indigo-700 opacity-0 group-hover:opacity-100 hover:bg-indigo-50 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            + New post
          </Link>
        )}
      </div>
      {posts.length > 0 && (
        <ul role="list" aria-label={`Posts on ${label}`} className="space-y-1">
          {posts.slice(0, MONTH_CELL_CHIPS).map(renderChip)}
        </ul>
      )}
      {hidden > 0 && (
        <Link href={moreHref} className="mt-1 block text-xs font-semibold text-indigo-700 hover:underline">
          +{hidden} more<span className="sr-only"> on {label}</span>
        </Link>
      )}
    </td>
  );
}
