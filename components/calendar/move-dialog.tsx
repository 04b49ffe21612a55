'use client';

import { useEffect, useRef, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { zonedParts } from '@/lib/calendar/grid';
import type { CalendarPost } from '@/lib/reads/calendar';

type Props = {
  post: CalendarPost | null;
  timeZone: string;
  onMove: (post: CalendarPost, localDateTime: string) => void;
  onClose: () => void;
};

/**
 * The keyboard's way to reschedule (what a drag does with a pointer): a modal dialog with a date and a time in
 * the viewer's zone. The native <dialog> traps focus and closes on Escape.
 */
export function MoveDialog({ post, timeZone, onMove, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (post && dialog && !dialog.open) dialog.showModal();
  }, [post]);

  const current = post ? zonedParts(post.scheduledAt, timeZone) : null;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const date = String(data.get('date') ?? '');
    const time = String(data.get('time') ?? '');
    ref.current?.close();
    if (post && date && time) onMove(post, `${date}T${time}`);
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby="move-dialog-title"
      onClose={onClose}
      className="m-auto w-full max-w-sm rounded-lg bg-white p-6 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/40"
    >
      {post && current && (
        <form onSubmit={submit} className="space-y-4" key={post.id}>
          <div>
            <h2 id="move-dialog-title" className="text-base font-semibold text-slate-900">
              Move post
            </h2>
            <p className="mt-1 line-clamp-2 text-sm text-slate-600">{post.text}</p>
          </div>
          <div className="flex gap-3">
            <label className="block flex-1 text-sm font-medium text-slate-900">
              Date
              <input name="date" type="date" required defaultValue={current.date} className={inputClass} />
            </label>
            <label className="block w-32 text-sm font-medium text-slate-900">
              Time
              <input name="time" type="time" required defaultValue={current.time} className={inputClass} />
            </label>
          </div>
          <p className="text-xs text-slate-500">In your time zone, {timeZone}.</p>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => ref.current?.close()}>
              Cancel
            </Button>
            <Button type="submit">Move</Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
