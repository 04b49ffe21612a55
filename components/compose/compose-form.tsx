'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { zonedLocalInput } from '@/lib/calendar/grid';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';
import type { ComposeResult } from '@/lib/posts/compose-form';
import { AccountsPicker, type ComposeAccount } from './accounts-picker';
import { ComposeOutcome } from './compose-outcome';
import { KindPicker } from './kind-picker';
import { SchedulePicker } from './schedule-picker';
import { TextWithCounts } from './text-with-counts';
import { ThreadParts } from './thread-parts';
import { useComposeDraft } from './use-compose-draft';

type Props = {
  workspaceId: string;
  accounts: ComposeAccount[];
  action: FormAction<ComposeResult>;
  /** An instant to schedule at (the calendar's "New post" on a day or slot). */
  prefillAt?: string;
};

export function ComposeForm({ workspaceId, accounts, action, prefillAt }: Props) {
  const { draft, update, startNew } = useComposeDraft(`semel:compose:${workspaceId}`);
  const [state, setState] = useState<ActionState<ComposeResult> | undefined>();
  const [networkError, setNetworkError] = useState(false);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false); // a second click before React re-renders the disabled button is ignored
  const [timeZone] = useState(() =>
    typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC',
  );

  // The calendar's time goes into the draft once it is loaded; the draft's key is left as it is.
  const prefilledFor = useRef<string | undefined>(undefined);
  const draftLoaded = draft !== null;
  useEffect(() => {
    if (!prefillAt || !draftLoaded || prefilledFor.current === prefillAt) return;
    prefilledFor.current = prefillAt;
    update({ when: 'later', localDateTime: zonedLocalInput(prefillAt, timeZone) });
  }, [prefillAt, draftLoaded, timeZone, update]);

  if (!draft) return <p className="text-sm text-slate-600">Loading the composer…</p>;

  const fieldError = (name: string) => state?.errors?.[name]?.[0];
  const selected = accounts.filter((a) => draft.accountIds.includes(a.id));

  async function submit(form: HTMLFormElement, confirmDuplicate = false) {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    setNetworkError(false);
    const data = new FormData(form);
    if (confirmDuplicate) data.set('confirmDuplicate', '1');
    try {
      const next = await action(undefined, data);
      setState(next);
      // Only after the success is on screen does the form get a new key for the next intent.
      if (next.ok) startNew();
    } catch {
      setNetworkError(true);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
      className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      noValidate
      aria-busy={pending}
    >
      <input type="hidden" name="idempotencyKey" value={draft.key} />
      <input type="hidden" name="timeZone" value={timeZone} />
      <ComposeOutcome
        state={state}
        networkError={networkError}
        pending={pending}
        onConfirmDuplicate={(form) => void submit(form, true)}
        onStartNew={() => {
          startNew();
          setState(undefined);
        }}
      />
      <AccountsPicker
        accounts={accounts}
        selectedIds={draft.accountIds}
        error={fieldError('accountIds')}
        onChange={(accountIds) => update({ accountIds })}
      />
      <KindPicker
        draft={draft}
        errors={{ inReplyTo: fieldError('inReplyTo'), recipient: fieldError('recipient') }}
        update={update}
      />
      {draft.kind === 'thread' ? (
        <ThreadParts
          parts={draft.parts}
          providers={[...new Set(selected.map((a) => a.provider))]}
          errors={state?.errors}
          onChange={(parts) => update({ parts })}
        />
      ) : (
        <TextWithCounts
          text={draft.text}
          selected={selected}
          error={fieldError('text')}
          onChange={(text) => update({ text })}
        />
      )}
      <SchedulePicker draft={draft} timeZone={timeZone} error={fieldError('localDateTime')} update={update} />
      <div className="flex items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Scheduling…">
          Schedule
        </SubmitButton>
        <span className="text-xs text-slate-500">
          Safe to retry: this post is sent with its own key, so it can only be scheduled once.
        </span>
      </div>
    </form>
  );
}
