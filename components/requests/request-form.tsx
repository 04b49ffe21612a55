'use client';

import { useRef, useState, type FormEvent } from 'react';
import { MediaPicker } from '@/components/compose/media-picker';
import type { DraftMedia } from '@/components/compose/draft-parts';
import { FieldError, fieldAria, inputClass, TextAreaField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { useSessionDraft } from '@/components/ui/use-session-draft';
import type { ActionState, FormAction } from '@/lib/auth/action';

type RequestDraft = {
  key: string;
  name: string;
  text: string;
  media: DraftMedia[];
  preferredLocal: string;
  note: string;
};

const emptyRequest = (): RequestDraft => ({
  key: crypto.randomUUID(),
  name: '',
  text: '',
  media: [],
  preferredLocal: '',
  note: '',
});

type Props = { token: string; action: FormAction<{ replayed: boolean }> };

/**
 * A client's post request. Its key is minted when the form first loads and kept with the draft in sessionStorage,
 * so a double click, a reload and resubmit or a retry after a dropped connection is one request; the server's
 * key constraint decides, the disabled button only spares the round trip.
 */
export function RequestForm({ token, action }: Props) {
  const { draft, update, startNew } = useSessionDraft(`semel:request:${token.split('.')[0]}`, emptyRequest);
  const [state, setState] = useState<ActionState<{ replayed: boolean }> | undefined>();
  const [networkError, setNetworkError] = useState(false);
  const [uploadsPending, setUploadsPending] = useState(false);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false); // a second click before React re-renders the disabled button is ignored
  const [timeZone] = useState(() =>
    typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC',
  );

  if (!draft) return <p className="text-sm text-slate-600">Loading the form…</p>;
  const fieldError = (name: string) => state?.errors?.[name]?.[0];

  async function submit(form: HTMLFormElement) {
    if (inFlight.current) return;
    if (uploadsPending) {
      setState({ ok: false, message: 'Finish or remove the images being added first.', errors: {} });
      return;
    }
    inFlight.current = true;
    setPending(true);
    setNetworkError(false);
    try {
      setState(await action(undefined, new FormData(form)));
    } catch {
      setNetworkError(true);
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  if (state?.ok)
    return (
      <section aria-labelledby="request-done" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="request-done" className="text-lg font-semibold">
          {state.data?.replayed ? 'Already received' : 'Request received'}
        </h2>
        <p role="status" className="mt-2 text-slate-700">
          {state.message} The team will prepare the post and schedule it.
        </p>
        <button
          type="button"
          className="mt-4 text-sm font-semibold text-indigo-700 underline"
          onClick={() => {
            // Only now, after the answer is on screen, does the form get a new key for a new request.
            startNew();
            setState(undefined);
          }}
        >
          Send another request
        </button>
      </section>
    );

  return (
    <form
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        void submit(e.currentTarget);
      }}
      className="space-y-5 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      noValidate
      aria-busy={pending}
    >
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="key" value={draft.key} />
      <input type="hidden" name="timeZone" value={timeZone} />
      {draft.media.map((m) => (
        <input key={m.id} type="hidden" name="mediaIds" value={m.id} />
      ))}
      {state && !state.ok && (
        <p role="alert" className="text-sm text-rose-700">
          {state.message}
        </p>
      )}
      {networkError && (
        <p role="alert" className="text-sm text-rose-700">
          The request did not get an answer. Send it again: it will not arrive twice.
        </p>
      )}
      <TextField
        id="name"
        name="name"
        label="Your name"
        autoComplete="name"
        value={draft.name}
        onChange={(e) => update({ name: e.target.value })}
        error={fieldError('name')}
      />
      <TextAreaField
        id="text"
        name="text"
        label="Post text"
        rows={5}
        value={draft.text}
        onChange={(e) => update({ text: e.target.value })}
        error={fieldError('text')}
      />
      <MediaPicker
        media={draft.media}
        onChange={(media) => update({ media })}
        onPendingChange={setUploadsPending}
        requireAltText
        selected={[]}
        error={fieldError('mediaIds')}
        uploadUrl={`/api/request/${token}/media`}
        thumbnailOf={() => null}
      />
      <div>
        <label htmlFor="preferredLocal" className="block text-sm font-medium text-slate-900">
          Preferred time (optional)
        </label>
        <input
          type="datetime-local"
          name="preferredLocal"
          value={draft.preferredLocal}
          onChange={(e) => update({ preferredLocal: e.target.value })}
          className={inputClass}
          {...fieldAria('preferredLocal', { error: fieldError('preferredLocal'), description: true })}
        />
        <p id="preferredLocal-description" className="mt-1 text-xs text-slate-500">
          In your time zone ({timeZone}).
        </p>
        <FieldError id="preferredLocal" error={fieldError('preferredLocal')} />
      </div>
      <TextAreaField
        id="note"
        name="note"
        label="Note for the team (optional)"
        rows={3}
        value={draft.note}
        onChange={(e) => update({ note: e.target.value })}
        error={fieldError('note')}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send request
        </SubmitButton>
        <span className="text-xs text-slate-500">Safe to retry: a request sent twice arrives once.</span>
      </div>
    </form>
  );
}
