'use client';

import { useDroppable } from '@dnd-kit/core';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { PlacedPost } from './placement';

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hh = (hour: number) => String(hour).padStart(2, '0');

type Props = {
  days: string[];
  today: string;
  locale: string;
  caption: string;
  postsBySlot: Map<string, PlacedPost[]>;
  /** "New post" at a day's hour (null when that time has passed). */
  newPostHref: (date: string, hour: number | null) => string | null;
  renderChip: (placed: PlacedPost) => ReactNode;
};

/** Seven days by 24 hours; each hour of each day is a drop target (a drop sets that hour, minute 00). */
export function WeekGrid({ days, today, locale, caption, postsBySlot, newPostHref, renderChip }: Props) {
  const dayName = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
  const full = new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const hourName = new Intl.DateTimeFormat(locale, { hour: 'numeric', timeZone: 'UTC' });
  return (
    <table className="w-full table-fixed border-collapse overflow-hidden rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="w-16 border-b border-slate-200">
            <span className="sr-only">Hour</span>
          </th>
          {days.map((date) => {
            const href = newPostHref(date, null);
            const label = full.format(new Date(`${date}T00:00:00Z`));
            return (
              <th
                key={date}
                scope="col"
                data-date={date}
                aria-current={date === today ? 'date' : undefined}
                className={`border-b border-l border-slate-200 px-1 py-2 text-xs font-semibold ${date === today ? 'text-indigo-700' : 'text-slate-600'}`}
              >
                <span aria-hidden="true">{dayName.format(new Date(`${date}T00:00:00Z`))}</span>
                <span className="sr-only">{label}</span>
                {href && (
                  <Link
                    href={href}
                    aria-label={`New post on ${label}`}
                    className="ml-1 rounded px-1 font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    +
                  </Link>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {HOURS.map((hour) => (
          <tr key={hour}>
            <th scope="row" className="border-t border-slate-200 px-1 py-1 text-right align-top text-xs text-slate-500">
              {hourName.format(new Date(`2000-01-01T${hh(hour)}:00:00Z`))}
            </th>
            {days.map((date) => (
              <SlotCell
                key={date}
                date={date}
                hour={hour}
                posts={postsBySlot.get(`${date}T${hh(hour)}`) ?? []}
                newPostHref={newPostHref(date, hour)}
                renderChip={renderChip}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type SlotProps = {
  date: string;
  hour: number;
  posts: PlacedPost[];
  newPostHref: string | null;
  renderChip: (placed: PlacedPost) => ReactNode;
};

function SlotCell({ date, hour, posts, newPostHref, renderChip }: SlotProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `slot:${date}T${hh(hour)}` });
  return (
    <td
      ref={setNodeRef}
      data-slot={`${date}T${hh(hour)}`}
      className={`group h-12 border-t border-l border-slate-200 p-0.5 align-top ${isOver ? 'bg-indigo-50 ring-2 ring-indigo-400 ring-inset' : ''}`}
    >
      {posts.length > 0 ? (
        <ul role="list" className="space-y-0.5">
          {posts.map(renderChip)}
        </ul>
      ) : (
        newPostHref && (
          // Pointer users click the empty slot; keyboard users have the day's "New post" link in the header.
          <Link
            href={newPostHref}
            tabIndex={-1}
            className="block h-full min-h-10 rounded text-[11px] text-indigo-700 opacity-0 group-hover:opacity-100 hover:bg-indigo-50"
          >
            + New post at {hh(hour)}:00
          </Link>
        )
      )}
    </td>
  );
}
