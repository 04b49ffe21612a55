'use client';

import { useDraggable } from '@dnd-kit/core';
import Link from 'next/link';
import { StatusBadge } from '@/components/posts/status-badge';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import type { CalendarDelivery, CalendarPost } from '@/lib/reads/calendar';

/**
 * Statuses whose post may still be moved as far as the browser knows; the server has the last word. Moving a
 * draft changes its planned time only: it stays a draft.
 */
const MOVABLE = new Set(['scheduled', 'publishing', 'ambiguous', 'partial', 'draft', 'awaiting_approval']);
/** A draft is drawn dashed: planned, not scheduled; a post awaiting approval is framed amber: it will not go out yet. */
const chipFrame = (post: CalendarPost) =>
  post.status === 'draft'
    ? 'border border-dashed border-slate-400 bg-slate-50'
    : post.status === 'awaiting_approval'
      ? 'border border-dashed border-amber-500 bg-amber-50'
      : 'bg-white ring-1 ring-slate-200';
export const isMovable = (post: CalendarPost) => MOVABLE.has(post.status);

const AVATAR_TONE: Record<string, string> = {
  x: 'bg-slate-900 text-white',
  mastodon: 'bg-indigo-600 text-white',
  bluesky: 'bg-sky-500 text-white',
  linkedin: 'bg-blue-700 text-white',
  threads: 'bg-neutral-700 text-white',
  instagram: 'bg-pink-700 text-white',
  facebook: 'bg-blue-600 text-white',
  youtube: 'bg-red-700 text-white',
};

function AccountAvatars({ deliveries }: { deliveries: CalendarDelivery[] }) {
  return (
    <span className="flex -space-x-1" aria-hidden="true">
      {deliveries.slice(0, 3).map((d) => (
        <span
          key={d.id}
          title={`${d.handle} (${PROVIDER_LABEL[d.provider] ?? d.provider})`}
          className={`inline-flex size-5 items-center justify-center rounded-full text-[10px] font-bold ring-2 ring-white ${AVATAR_TONE[d.provider] ?? 'bg-slate-500 text-white'}`}
        >
          {(d.displayName ?? d.handle.replace(/^@/, '')).charAt(0).toUpperCase()}
        </span>
      ))}
    </span>
  );
}

type Props = {
  post: CalendarPost;
  time: string;
  canMove: boolean;
  moving: boolean;
  onRequestMove: (post: CalendarPost, trigger: HTMLElement) => void;
  /** While the calendar selects posts for a bulk action: this chip's checkbox. */
  selection?: { selected: boolean; onToggle: (postId: string) => void };
};

/** A post on the calendar: its time, accounts, status and text; dragged to reschedule, or moved with "Move…". */
export function PostChip({ post, time, canMove, moving, onRequestMove, selection }: Props) {
  const movable = canMove && isMovable(post) && !moving;
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: post.id, data: { post }, disabled: !movable });
  const statuses = [...new Set(post.deliveries.map((d) => d.status))];
  const handles = post.deliveries.map((d) => d.handle);
  return (
    <li
      ref={setNodeRef}
      {...listeners}
      data-testid="calendar-chip"
      data-post-id={post.id}
      data-status={post.status}
      aria-busy={moving}
      className={`rounded-md p-1.5 text-xs shadow-sm select-none ${chipFrame(post)} ${movable ? 'cursor-grab' : ''} ${isDragging ? 'opacity-40' : ''} ${moving ? 'animate-pulse' : ''}`}
    >
      {selection && (
        <label className="mb-1 flex items-center gap-1.5 text-[11px] font-medium text-indigo-800">
          <input
            type="checkbox"
            checked={selection.selected}
            onChange={() => selection.onToggle(post.id)}
            className="size-3.5"
          />
          Select<span className="sr-only"> {post.text}</span>
        </label>
      )}
      <ChipBody post={post} time={time} handles={handles} statuses={statuses} />
      {movable && !selection && (
        <button
          type="button"
          onClick={(e) => onRequestMove(post, e.currentTarget)}
          className="mt-1 rounded px-1.5 py-0.5 text-[11px] font-semibold text-indigo-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Move…<span className="sr-only"> {post.text}</span>
        </button>
      )}
    </li>
  );
}

function ChipBody({
  post,
  time,
  handles,
  statuses,
}: {
  post: CalendarPost;
  time: string;
  handles: string[];
  statuses: string[];
}) {
  return (
    <>
      <div className="flex items-center justify-between gap-1">
        <time dateTime={post.scheduledAt} className="font-semibold text-slate-900">
          {time}
        </time>
        <AccountAvatars deliveries={post.deliveries} />
      </div>
      <p className="truncate text-slate-600">
        {handles[0]}
        {handles.length > 1 && ` +${handles.length - 1}`}
        <span className="sr-only">{handles.length > 1 ? `, ${handles.slice(1).join(', ')}` : ''}</span>
      </p>
      {/* Not natively draggable: a link dragged by the browser would take the pointer away from the calendar's drag. */}
      <Link href={`/posts/${post.id}`} draggable={false} className="line-clamp-2 text-slate-800 hover:underline">
        {post.text}
      </Link>
      <div className="mt-1 flex flex-wrap gap-1">
        {statuses.map((s) => (
          <StatusBadge key={s} status={s} />
        ))}
      </div>
    </>
  );
}

/** What follows the pointer while a chip is dragged (outside the grid, so no cell clips it). */
export function DraggedChip({ post, time }: { post: CalendarPost; time: string }) {
  return (
    <div className="w-48 cursor-grabbing rounded-md bg-white p-1.5 text-xs shadow-lg ring-2 ring-indigo-500">
      <ChipBody
        post={post}
        time={time}
        handles={post.deliveries.map((d) => d.handle)}
        statuses={[...new Set(post.deliveries.map((d) => d.status))]}
      />
    </div>
  );
}
