'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { ActionState, FormAction } from '@/lib/auth/action';
import { queryKeys } from '@/lib/query/keys';
import { zonedLocalToUtc } from '@/lib/time/zoned';

export type MoveOutcome = { postId: string; scheduledAt: string; replayed: boolean };
export type MoveAction = FormAction<MoveOutcome>;

/** One move intent: its key is made once and reused when the same move is retried after a network error. */
type Intent = { key: string; postId: string; localDateTime: string; timeZone: string };

export type MoveMessage = { tone: 'ok' | 'error'; text: string; retry?: Intent };

/**
 * Moves a post through the keyed server action. The chip shows at the new time while the move is sent
 * (optimistic) and snaps back when the server refuses it (already publishing/sent, a past time) — the
 * refusal is said in the calendar's live region.
 */
export function useMovePost(action: MoveAction) {
  const queryClient = useQueryClient();
  const [moving, setMoving] = useState<Record<string, string>>({}); // postId → the instant it is shown at
  const [message, setMessage] = useState<MoveMessage | null>(null);
  const inFlight = useRef(new Set<string>()); // one move per post at a time, even before React re-renders

  const send = useCallback(
    async (intent: Intent) => {
      if (inFlight.current.has(intent.postId)) return;
      const target = zonedLocalToUtc(intent.localDateTime, intent.timeZone);
      if (!target.ok) {
        setMessage({ tone: 'error', text: target.error });
        return;
      }
      inFlight.current.add(intent.postId);
      setMoving((m) => ({ ...m, [intent.postId]: target.date.toISOString() }));
      setMessage(null);
      const form = new FormData();
      form.set('postId', intent.postId);
      form.set('idempotencyKey', intent.key);
      form.set('localDateTime', intent.localDateTime);
      form.set('timeZone', intent.timeZone);
      let result: ActionState<MoveOutcome> | null = null;
      try {
        result = await action(undefined, form);
      } catch {
        result = null;
      }
      if (result?.ok) {
        setMessage({ tone: 'ok', text: result.message ?? 'Moved.' });
        // The chip stays at its new time until the calendar has re-read it from the server.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: queryKeys.calendars() }),
          queryClient.invalidateQueries({ queryKey: queryKeys.queues() }),
        ]);
      } else {
        setMessage(
          result
            ? { tone: 'error', text: result.message ?? 'Not moved.' }
            : { tone: 'error', text: 'Could not reach the server; the post was not moved.', retry: intent },
        );
      }
      setMoving((m) => Object.fromEntries(Object.entries(m).filter(([id]) => id !== intent.postId)));
      inFlight.current.delete(intent.postId);
    },
    [action, queryClient],
  );

  const move = useCallback(
    (postId: string, localDateTime: string, timeZone: string) =>
      send({ key: crypto.randomUUID(), postId, localDateTime, timeZone }),
    [send],
  );

  return { move, retry: send, moving, message, dismiss: () => setMessage(null) };
}
