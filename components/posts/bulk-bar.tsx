'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { fieldAria, inputClass } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';
import type { BulkOutcome } from '@/lib/posts/bulk';
import { queryKeys } from '@/lib/query/keys';

type Props = {
  /** The selected posts, with the text each is listed by in the results. */
  selected: { id: string; text: string }[];
  onClear: () => void;
  accounts: { id: string; handle: string }[];
  snippets: { id: string; name: string }[];
  action: FormAction<BulkOutcome[]>;
};

const newKey = () => crypto.randomUUID();

/**
 * The selection bar of the calendar and the queue: one action for every selected post — reschedule by an offset, into
 * the queue's next free slots, change accounts, add or remove a snippet, cancel — each the same keyed edit as one post,
 * then the list of what changed and what was refused. One key per intent: a double click changes nothing twice.
 */
export function BulkBar({ selected, onClear, accounts, snippets, action }: Props) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState('reschedule');
  const [key, setKey] = useState(newKey);
  const [state, formAction, pending] = useActionState(
    async (previous: ActionState<BulkOutcome[]> | undefined, data: FormData) => {
      const next = await action(previous, data);
      if (next.ok) {
        setKey(newKey()); // the next action is a new intent
        void queryClient.invalidateQueries({ queryKey: queryKeys.calendars() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.queues() });
      }
      return next;
    },
    undefined,
  );
  const shown = state;
  const textOf = new Map(selected.map((s) => [s.id, s.text]));
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <section
      aria-label="Bulk actions"
      className="sticky top-0 z-10 mb-4 rounded-lg bg-indigo-50 p-4 text-sm shadow-sm ring-1 ring-indigo-200"
    >
      <form action={formAction} className="flex flex-wrap items-end gap-3" noValidate>
        <input type="hidden" name="key" value={key} />
        {selected.map((s) => (
          <input key={s.id} type="hidden" name="postIds" value={s.id} />
        ))}
        <p className="font-semibold text-slate-900" aria-live="polite">
          {selected.length} selected
        </p>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">Action</span>
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)} className={`${inputClass} mt-0`}>
            <option value="reschedule">Reschedule by…</option>
            <option value="queue">Move to the queue (next free slots)</option>
            <option value="accounts">Change accounts…</option>
            <option value="snippet-add">Add a snippet…</option>
            <option value="snippet-remove">Remove a snippet…</option>
            <option value="cancel">Cancel</option>
          </select>
        </label>
        {kind === 'reschedule' && (
          <>
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-slate-700">Move by (negative: earlier)</span>
              <input
                {...fieldAria('bulk-offset', { error: error('offset') })}
                name="offset"
                type="number"
                step={1}
                defaultValue={1}
                className={`${inputClass} mt-0 w-24`}
              />
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-slate-700">Unit</span>
              <select name="unit" defaultValue="days" className={`${inputClass} mt-0`}>
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </select>
            </label>
          </>
        )}
        {kind === 'accounts' && (
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
            <legend className="text-xs font-medium text-slate-700">Add / remove</legend>
            {accounts.map((a) => (
              <span key={a.id} className="flex items-center gap-2">
                {a.handle}
                <label className="flex items-center gap-1">
                  <input type="checkbox" name="add" value={a.id} /> add
                </label>
                <label className="flex items-center gap-1">
                  <input type="checkbox" name="remove" value={a.id} /> remove
                </label>
              </span>
            ))}
          </fieldset>
        )}
        {kind.startsWith('snippet') && (
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Snippet</span>
            <select name="snippetId" className={`${inputClass} mt-0`}>
              {snippets.length === 0 && <option value="">No snippets (Library)</option>}
              {snippets.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <SubmitButton pending={pending} pendingLabel="Applying…" variant={kind === 'cancel' ? 'danger' : 'primary'}>
          Apply to {selected.length}
        </SubmitButton>
        <Button type="button" variant="secondary" onClick={onClear}>
          Clear selection
        </Button>
      </form>
      {shown && (
        <div role="status" aria-live="polite" className="mt-3">
          <p className={shown.ok ? 'font-medium text-slate-900' : 'text-rose-700'}>
            {shown.message}
            {!shown.ok && shown.errors && ` ${Object.values(shown.errors).flat().join(' ')}`}
          </p>
          {shown.data && shown.data.length > 0 && (
            <ul aria-label="Bulk results" className="mt-2 space-y-1">
              {shown.data.map((o) => (
                <li key={o.postId} data-outcome={o.outcome} className="flex gap-2">
                  <span
                    className={`w-20 shrink-0 font-semibold ${o.outcome === 'refused' ? 'text-rose-700' : o.outcome === 'changed' ? 'text-emerald-700' : 'text-slate-600'}`}
                  >
                    {o.outcome}
                  </span>
                  <span className="truncate text-slate-800">{textOf.get(o.postId) ?? o.postId}</span>
                  <span className="text-slate-600">— {o.message}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
