'use client';

import {
  DndContext,
  DragOverlay,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { fetchRange, viewDays, zonedParts, type CalendarView } from '@/lib/calendar/grid';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls, type CalendarQuery } from '@/lib/query/keys';
import type { CalendarData, CalendarFilters, CalendarPost } from '@/lib/reads/calendar';
import { zonedLocalToUtc } from '@/lib/time/zoned';
import { BulkBar } from '@/components/posts/bulk-bar';
import { Button } from '@/components/ui/button';
import type { FormAction } from '@/lib/auth/action';
import type { BulkOutcome } from '@/lib/posts/bulk';
import { CalendarToolbar, calendarHref } from './calendar-toolbar';
import { MonthGrid } from './month-grid';
import { MoveDialog } from './move-dialog';
import { groupPlaced, placePosts, type PlacedPost } from './placement';
import { DraggedChip, PostChip } from './post-chip';
import { useMovePost, type MoveAction } from './use-move-post';
import { useViewer } from './use-viewer';
import { WeekGrid } from './week-grid';

const CHANGING = new Set(['publishing', 'ambiguous', 'partial']);
const hh = (hour: number) => String(hour).padStart(2, '0');

type Props = {
  workspaceId: string;
  workspaceTimeZone: string;
  view: CalendarView;
  anchor: string;
  filters: CalendarFilters;
  accounts: { id: string; handle: string; displayName: string | null }[];
  canEdit: boolean;
  canCompose: boolean;
  moveAction: MoveAction;
  /** Bulk actions on selected posts (editors only), with the workspace's snippets. */
  bulk?: { action: FormAction<BulkOutcome[]>; snippets: { id: string; name: string }[] };
};

/** The calendar: month or week in the viewer's zone; drag a chip (or "Move…") to reschedule with a keyed edit. */
export function CalendarBoard(props: Props) {
  const { workspaceId, view, anchor, filters, canEdit, canCompose } = props;
  const { hydrated, timeZone, locale, now, today } = useViewer();
  const query: CalendarQuery = { ...fetchRange(view, anchor), account: filters.account, status: filters.status };
  const { data } = useQuery({
    queryKey: queryKeys.calendar(workspaceId, query),
    queryFn: () => getJson<CalendarData>(readUrls.calendar(query)),
    // Poll fast only while something can change on its own: a post going out now or being verified.
    refetchInterval: (q) =>
      (q.state.data?.posts ?? []).some(
        (p) => CHANGING.has(p.status) || (p.status === 'scheduled' && Date.parse(p.scheduledAt) < Date.now() + 60_000),
      )
        ? 1_500
        : 30_000,
  });
  const { move, retry, moving, message } = useMovePost(props.moveAction);
  const [dialog, setDialog] = useState<{ post: CalendarPost; trigger: HTMLElement } | null>(null);
  const [dragged, setDragged] = useState<PlacedPost | null>(null);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
  );
  const boardRef = useRef<HTMLDivElement>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const toggle = (postId: string) =>
    setSelected((current) => (current.includes(postId) ? current.filter((id) => id !== postId) : [...current, postId]));

  const days = viewDays(view, anchor);
  const placed = hydrated ? placePosts(data?.posts ?? [], moving, timeZone, locale) : [];
  const byId = new Map(placed.map((p) => [p.post.id, p]));
  const postsByDay = groupPlaced(placed, (p) => p.date);
  const postsBySlot = groupPlaced(placed, (p) => `${p.date}T${hh(p.hour)}`);

  function newPostHref(date: string, hour: number | null): string | null {
    if (!hydrated || !canCompose) return null;
    const nextHour = zonedParts(new Date(now), timeZone).hour + 1; // a day's "New post": 09:00, today the next hour
    const local =
      hour !== null
        ? `${date}T${hh(hour)}:00`
        : date === today
          ? nextHour <= 23
            ? `${date}T${hh(nextHour)}:00`
            : null
          : `${date}T09:00`;
    const at = local ? zonedLocalToUtc(local, timeZone) : null;
    if (!at?.ok || at.date.getTime() <= now) return null;
    return `/compose?at=${encodeURIComponent(at.date.toISOString())}`;
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(null);
    const item = byId.get(String(active.id));
    if (!item || !over) return;
    const [kind, target] = String(over.id).split(':', 2) as ['day' | 'slot', string];
    // A day keeps the post's time of day; an hour slot sets that hour, minute 00.
    const local = kind === 'day' ? `${target}T${item.localTime}` : `${target}:00`;
    if (local === `${item.date}T${item.localTime}`) return;
    void move(item.post.id, local, timeZone);
  }

  const renderChip = (p: PlacedPost) => (
    <PostChip
      key={p.post.id}
      post={p.post}
      time={p.label}
      canMove={canEdit}
      moving={p.post.id in moving}
      onRequestMove={(post, trigger) => setDialog({ post, trigger })}
      selection={selecting ? { selected: selected.includes(p.post.id), onToggle: toggle } : undefined}
    />
  );
  const posts = data?.posts ?? [];
  const title =
    view === 'month'
      ? new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          new Date(`${anchor}T00:00:00Z`),
        )
      : new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          timeZone: 'UTC',
        }).formatRange(new Date(`${days[0]}T00:00:00Z`), new Date(`${days[6]}T00:00:00Z`));
  const location = { view, date: anchor, ...filters };

  return (
    <div ref={boardRef}>
      <CalendarToolbar
        location={location}
        title={title}
        today={today}
        timeZone={timeZone}
        workspaceTimeZone={props.workspaceTimeZone}
        accounts={props.accounts}
        actions={
          props.bulk && (
            <Button
              type="button"
              variant="secondary"
              aria-pressed={selecting}
              title="Tick posts to reschedule, move, re-target, edit or cancel them together"
              onClick={() => {
                setSelecting(!selecting);
                setSelected([]);
              }}
              className="py-1.5"
            >
              {selecting ? 'Done selecting' : 'Select posts'}
            </Button>
          )
        }
      />
      {props.bulk && selecting && selected.length > 0 && (
        <BulkBar
          selected={selected.map((id) => ({ id, text: posts.find((p) => p.id === id)?.text ?? id }))}
          onClear={() => setSelected([])}
          accounts={props.accounts.map((a) => ({ id: a.id, handle: a.handle }))}
          snippets={props.bulk.snippets}
          action={props.bulk.action}
        />
      )}
      <div role="status" aria-live="polite" data-testid="calendar-message" className="mb-3 min-h-6 text-sm">
        {message && (
          <p className={message.tone === 'ok' ? 'text-emerald-700' : 'text-rose-700'}>
            {message.text}{' '}
            {message.retry && (
              <button
                type="button"
                onClick={() => void retry(message.retry!)}
                className="font-semibold underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Retry
              </button>
            )}
          </p>
        )}
      </div>
      {data?.truncated && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/30">
          This range has more posts than the calendar shows at once; filter by account or status to see them all.
        </p>
      )}
      <DndContext
        sensors={sensors}
        onDragStart={({ active }: DragStartEvent) => setDragged(byId.get(String(active.id)) ?? null)}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
      >
        {view === 'month' ? (
          <MonthGrid
            days={days}
            month={anchor.slice(0, 7)}
            today={today}
            locale={locale}
            caption={title}
            postsByDay={postsByDay}
            newPostHref={(date) => newPostHref(date, null)}
            weekHref={(date) => calendarHref({ ...location, view: 'week', date })}
            renderChip={renderChip}
          />
        ) : (
          <WeekGrid
            days={days}
            today={today}
            locale={locale}
            caption={title}
            postsBySlot={postsBySlot}
            newPostHref={newPostHref}
            renderChip={renderChip}
          />
        )}
        <DragOverlay dropAnimation={null}>
          {dragged && (
            <div aria-hidden="true">
              <DraggedChip post={dragged.post} time={dragged.label} />
            </div>
          )}
        </DragOverlay>
      </DndContext>
      <MoveDialog
        post={dialog?.post ?? null}
        timeZone={timeZone}
        onMove={(post, local) => void move(post.id, local, timeZone)}
        onClose={() => {
          const trigger = dialog?.trigger;
          setDialog(null);
          // The chip may have moved to another cell (a new element): then focus goes to the calendar's title.
          if (trigger?.isConnected) trigger.focus();
          else boardRef.current?.querySelector<HTMLElement>('#calendar-title')?.focus();
        }}
      />
    </div>
  );
}
