'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { zonedLocalInput } from '@/lib/calendar/grid';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';
import type { ComposeResult } from '@/lib/posts/compose-form';
import { AccountsPicker, type ComposeAccount } from './accounts-picker';
import { ComposeOutcome } from './compose-outcome';
import { KindPicker } from './kind-picker';
import { MediaPicker } from './media-picker';
import { SchedulePicker } from './schedule-picker';
import { TextWithCounts } from './text-with-counts';
import { useComposeDraft } from './use-compose-draft';

type Props = {
  workspaceId: string;
  accounts: ComposeAccount[];
  action: FormAction<ComposeResult>;
  /** An instant to schedule at (the calendar's "New post" on a day or slot). */
  prefillAt?: string;
  /** The workspace asks for alt text on every image (Settings → General). */
  requireAltText: boolean;
};

export function ComposeForm({ workspaceId, accounts, action, prefillAt, requireAltText }: Props) {
  const { draft, update, startNew } = useComposeDraft(`semel:compose:${workspaceId}`);
  const [state, setState] = useState<ActionState<ComposeResult> | undefined>();
  const [networkError, setNetworkError] = useState(false);
  const [uploadsPending, setUploadsPending] = useState(false);
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

  async function submit(form: HTMLFormElement, confirmDuplicate = false) {
    if (inFlight.current) return;
    if (uploadsPending) {
      setState({ ok: false, message: 'Finish or remove the images being added first.', errors: {} });
      return;
    }
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
      <TextWithCounts
        text={draft.text}
        selected={accounts.filter((a) => draft.accountIds.includes(a.id))}
        error={fieldError('text')}
        onChange={(text) => update({ text })}
      />
      {draft.media.map((m) => (
        <input key={m.id} type="hidden" name="mediaIds" value={m.id} />
      ))}
      <MediaPicker
        media={draft.media}
        onChange={(media) => update({ media })}
        onPendingChange={setUploadsPending}
        requireAltText={requireAltText}
        selected={accounts.filter((a) => draft.accountIds.includes(a.id))}
        error={fieldError('mediaIds')}
      />
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
