'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { ActionState, FormAction } from '@/lib/auth/action';
import { zonedLocalInput } from '@/lib/calendar/grid';

export type ScheduleDraftOutcome = { postId: string; scheduledAt: string; replayed: boolean };

type Props = {
  postId: string;
  /** The draft's planned time (prefilled when still ahead, else an hour from now). */
  plannedAt: string;
  action: FormAction<ScheduleDraftOutcome>;
};

/**
 * "Schedule…" for a draft: at a time in the viewer's zone, or the next free posting slot. One key per opened
 * form, made in the browser and reused by every retry of it, so a double click or a retry schedules it once.
 */
export function ScheduleDraft({ postId, plannedAt, action }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState('');
  const [timeZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [localDateTime, setLocalDateTime] = useState('');
  const [state, setState] = useState<ActionState<ScheduleDraftOutcome> | null>(null);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  function start() {
    const at = Date.parse(plannedAt) > Date.now() + 60_000 ? plannedAt : new Date(Date.now() + 3_600_000).toISOString();
    setLocalDateTime(zonedLocalInput(at, timeZone));
    setKey(crypto.randomUUID());
    setState(null);
    setOpen(true);
  }

  async function send(when: 'later' | 'queue') {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    const data = new FormData();
    data.set('postId', postId);
    data.set('idempotencyKey', key);
    data.set('when', when);
    data.set('localDateTime', localDateTime);
    data.set('timeZone', timeZone);
    try {
      const result = await action(undefined, data);
      setState(result);
      if (result.ok) router.refresh();
    } catch {
      setState({ ok: false, message: 'Could not reach the server. Try again: the draft is scheduled once.' });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  if (!open)
    return (
      <Button type="button" variant="secondary" onClick={start}>
        Schedule…
      </Button>
    );
  const fieldId = `schedule-${postId}`;
  return (
    <div className="w-full space-y-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200" aria-busy={pending}>
      <TextField
        id={fieldId}
        type="datetime-local"
        label={`Date and time (${timeZone})`}
        className="max-w-xs"
        value={localDateTime}
        error={state?.errors?.localDateTime?.[0] ?? state?.errors?.scheduledAt?.[0]}
        onChange={(e) => setLocalDateTime(e.target.value)}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="button" disabled={pending} onClick={() => void send('later')}>
          {pending ? 'Scheduling…' : 'Schedule at this time'}
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={() => void send('queue')}>
          Add to queue
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
      {state?.message && (
        <p
          role={state.ok ? 'status' : 'alert'}
          className={`text-sm ${state.ok ? 'text-emerald-800' : 'text-rose-700'}`}
        >
          {state.message}
        </p>
      )}
    </div>
  );
}
