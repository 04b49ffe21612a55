'use client';

import Link from 'next/link';
import { useRef, useState, type FormEvent } from 'react';
import type { ComposeActionState } from '@/app/(dashboard)/compose/actions';
import { Button } from '@/components/ui/button';
import { characterCount, TEXT_LIMITS } from '@/lib/posts/post-input';
import { PROVIDER_LABEL } from '@/lib/providers/labels';
import { useComposeDraft } from './use-compose-draft';

type Account = { id: string; handle: string; provider: 'x' | 'mastodon' | 'bluesky'; displayName: string | null };
type Props = {
  workspaceId: string;
  accounts: Account[];
  action: (state: ComposeActionState | undefined, data: FormData) => Promise<ComposeActionState>;
};

const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm aria-[invalid=true]:border-rose-500';

export function ComposeForm({ workspaceId, accounts, action }: Props) {
  const { draft, update, startNew } = useComposeDraft(`postonce:compose:${workspaceId}`);
  const [state, setState] = useState<ComposeActionState | undefined>();
  const [networkError, setNetworkError] = useState(false);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false); // a second click before React re-renders the disabled button is ignored
  const [timeZone] = useState(() => (typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC'));

  if (!draft) return <p className="text-sm text-slate-600">Loading the composer…</p>;

  const errors = state?.errors ?? {};
  const selected = accounts.filter((a) => draft.accountIds.includes(a.id));
  const count = characterCount(draft.text);
  const result = state?.data;

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

  const fieldError = (name: string) => errors[name]?.[0];
  const describedBy = (name: string) => (fieldError(name) ? `${name}-error` : undefined);

  return (
    <form onSubmit={(e: FormEvent<HTMLFormElement>) => { e.preventDefault(); void submit(e.currentTarget); }} className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200" noValidate aria-busy={pending}>
      <input type="hidden" name="idempotencyKey" value={draft.key} />
      <input type="hidden" name="timeZone" value={timeZone} />

      {state?.ok && result?.ok && (
        <div role="status" className="rounded-md bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-semibold">{state.message}</p>
          <Link href={`/posts/${result.postId}`} className="font-medium underline">View the post</Link>
        </div>
      )}
      {networkError && (
        <div role="alert" className="rounded-md bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          Couldn&apos;t reach the server. Your draft is kept — submit again: it will not be scheduled twice.
        </div>
      )}
      {state && !state.ok && (
        <div role="alert" className="rounded-md bg-rose-50 p-4 text-sm text-rose-900 ring-1 ring-rose-200">
          <p>{state.message}</p>
          {result && !result.ok && result.kind === 'possible_duplicate' && (
            <Button type="button" variant="secondary" className="mt-3" disabled={pending}
              onClick={(e) => void submit(e.currentTarget.form!, true)}>
              Schedule anyway
            </Button>
          )}
          {result && !result.ok && result.kind === 'mismatch' && (
            <Button type="button" variant="secondary" className="mt-3" onClick={() => { startNew(); setState(undefined); }}>Start a new post</Button>
          )}
        </div>
      )}

      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Accounts</legend>
        {accounts.length === 0 && <p className="mt-1 text-sm text-slate-600">No accounts yet: an admin can connect one under Accounts.</p>}
        <div className="mt-2 grid gap-2 sm:grid-cols-2" aria-describedby={describedBy('accountIds')}>
          {accounts.map((a) => (
            <label key={a.id} className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50">
              <input type="checkbox" name="accountIds" value={a.id} checked={draft.accountIds.includes(a.id)}
                onChange={(e) => update({ accountIds: e.target.checked ? [...draft.accountIds, a.id] : draft.accountIds.filter((id) => id !== a.id) })} />
              <span>{a.displayName ?? a.handle} <span className="text-slate-500">{a.handle} · {PROVIDER_LABEL[a.provider]}</span></span>
            </label>
          ))}
        </div>
        <p id="accountIds-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{fieldError('accountIds')}</p>
      </fieldset>

      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Kind</legend>
        <div className="mt-2 flex gap-4 text-sm">
          {(['post', 'reply', 'dm'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input type="radio" name="kind" value={k} checked={draft.kind === k} onChange={() => update({ kind: k })} />
              {k === 'post' ? 'Post' : k === 'reply' ? 'Reply' : 'Direct message'}
            </label>
          ))}
        </div>
      </fieldset>
      {draft.kind === 'reply' && (
        <LineField name="inReplyTo" label="Replying to (post id or link)" value={draft.inReplyTo} error={fieldError('inReplyTo')} onChange={(v) => update({ inReplyTo: v })} />
      )}
      {draft.kind === 'dm' && (
        <LineField name="recipient" label="Recipient handle" value={draft.recipient} error={fieldError('recipient')} onChange={(v) => update({ recipient: v })} />
      )}

      <div>
        <label htmlFor="text" className="block text-sm font-medium">Text</label>
        <textarea id="text" name="text" rows={5} value={draft.text} onChange={(e) => update({ text: e.target.value })} className={input}
          aria-invalid={Boolean(fieldError('text'))} aria-describedby={['text-count', describedBy('text')].filter(Boolean).join(' ')} />
        <p id="text-count" className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-live="polite">
          {(selected.length ? [...new Set(selected.map((a) => a.provider))] : (['x', 'mastodon'] as const)).map((p) => (
            <span key={p} className={count > TEXT_LIMITS[p] ? 'font-semibold text-rose-700' : ''}>
              {count}/{TEXT_LIMITS[p]} {PROVIDER_LABEL[p]}
            </span>
          ))}
        </p>
        <p id="text-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{fieldError('text')}</p>
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-slate-900">When</legend>
        <div className="mt-2 flex gap-4 text-sm">
          <label className="flex items-center gap-2"><input type="radio" name="when" value="now" checked={draft.when === 'now'} onChange={() => update({ when: 'now' })} />Post now</label>
          <label className="flex items-center gap-2"><input type="radio" name="when" value="later" checked={draft.when === 'later'} onChange={() => update({ when: 'later' })} />Schedule</label>
        </div>
        {draft.when === 'later' && (
          <div className="mt-3">
            <label htmlFor="localDateTime" className="block text-sm font-medium">Date and time ({timeZone})</label>
            <input id="localDateTime" name="localDateTime" type="datetime-local" value={draft.localDateTime} onChange={(e) => update({ localDateTime: e.target.value })}
              className={`${input} max-w-xs`} aria-invalid={Boolean(fieldError('localDateTime'))} aria-describedby={describedBy('localDateTime')} />
            <p id="localDateTime-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{fieldError('localDateTime')}</p>
          </div>
        )}
      </fieldset>

      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>{pending ? 'Scheduling…' : 'Schedule'}</Button>
        <span className="text-xs text-slate-500">Safe to retry: this post is sent with its own key, so it can only be scheduled once.</span>
      </div>
    </form>
  );
}

/** A one-line field with its label and an error region the input points to (aria-describedby). */
function LineField({ name, label, value, error, onChange }: { name: string; label: string; value: string; error?: string; onChange: (value: string) => void }) {
  return (
    <div>
      <label htmlFor={name} className="block text-sm font-medium">{label}</label>
      <input id={name} name={name} value={value} onChange={(e) => onChange(e.target.value)} className={input}
        aria-invalid={Boolean(error)} aria-describedby={error ? `${name}-error` : undefined} />
      <p id={`${name}-error`} aria-live="polite" className="mt-1 text-sm text-rose-700">{error}</p>
    </div>
  );
}
