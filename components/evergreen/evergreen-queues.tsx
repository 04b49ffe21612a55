'use client';

import { useActionState, useState } from 'react';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';

type Queue = {
  id: string;
  name: string;
  accounts: string[];
  minGapDays: number;
  paused: boolean;
  cycle: number;
  lastError: string | null;
};
type Item = {
  id: string;
  text: string;
  variants: string[];
  skipNext: boolean;
  posts: number;
  lastPostAt: string | null;
  doneThisCycle: boolean;
  refusal: string | null;
};

/**
 * One queue: its state at a glance, its posts in order (with up, down, skip next, edit and remove; a post that could
 * not be posted says why), pause, and a new post.
 */
export function EvergreenQueueCard(props: {
  queue: Queue;
  items: Item[];
  actions: { addItem: FormAction; editItem: FormAction; setPaused: FormAction; item: FormAction };
}) {
  const { queue } = props;
  const [pauseState, pause, pausing] = useActionState(props.actions.setPaused, undefined);
  const [itemState, itemAction, itemPending] = useActionState(props.actions.item, undefined);
  // The new post is kept across a refusal (the form is reset after every submission); emptied once it is added.
  const [draft, setDraft] = useState({ text: '', variants: '' });
  const [addState, add, adding] = useActionState<ActionState | undefined, FormData>(async (previous, form) => {
    const result = await props.actions.addItem(previous, form);
    if (result.ok) setDraft({ text: '', variants: '' });
    return result;
  }, undefined);
  const done = props.items.filter((i) => i.doneThisCycle).length;
  return (
    <section aria-labelledby={`queue-${queue.id}`} className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`queue-${queue.id}`} className="text-base font-semibold">
            {queue.name}{' '}
            <span
              className={`ml-1 rounded px-1.5 text-xs ${queue.paused ? 'bg-amber-100 text-amber-900' : 'bg-emerald-50 text-emerald-800'}`}
            >
              {queue.paused ? 'paused' : 'running'}
            </span>
          </h2>
          <p className="text-sm text-slate-600">
            To {queue.accounts.join(', ')} · cycle {queue.cycle}: {done} of {props.items.length} done · at least{' '}
            {queue.minGapDays} days between repeats
          </p>
          {queue.lastError && (
            <p role="status" className="mt-1 text-sm text-rose-700">
              Waiting: {queue.lastError}
            </p>
          )}
        </div>
        <form action={pause}>
          <input type="hidden" name="queueId" value={queue.id} />
          <input type="hidden" name="paused" value={String(!queue.paused)} />
          <SubmitButton variant="secondary" pending={pausing} pendingLabel="Saving…">
            {queue.paused ? 'Resume' : 'Pause'}
          </SubmitButton>
          {pauseState ? <FormStatus state={pauseState} successOnly /> : null}
        </form>
      </header>
      <ol
        aria-label={`Posts of ${queue.name}`}
        className="mb-4 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
      >
        {props.items.length === 0 && <li className="px-4 py-3 text-sm text-slate-600">No posts yet.</li>}
        {props.items.map((item, i) => (
          <li key={item.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm">
            <div className="min-w-0">
              <p className="whitespace-pre-wrap text-slate-900">{item.text}</p>
              <p className="mt-1 text-xs text-slate-600">
                {item.doneThisCycle ? 'Done this cycle' : 'To come this cycle'} · posted {item.posts}×
                {item.lastPostAt && (
                  <>
                    {' '}
                    · last <LocalTime iso={item.lastPostAt} />
                  </>
                )}
                {item.variants.length > 0 && ` · ${item.variants.length} variant(s) for X and LinkedIn`}
                {item.skipNext && ' · its next turn is skipped'}
              </p>
              {item.refusal && (
                <p className="mt-1 text-xs text-rose-700">
                  Not posted, passed over: {item.refusal} — edit it to give it its turn again.
                </p>
              )}
              <EditItem item={item} action={props.actions.editItem} />
            </div>
            <form action={itemAction} className="flex gap-1">
              <input type="hidden" name="itemId" value={item.id} />
              <button
                name="op"
                value="up"
                disabled={i === 0 || itemPending}
                aria-label={`Move up: ${item.text.slice(0, 40)}`}
                className="rounded px-2 py-1 ring-1 ring-slate-300 disabled:opacity-40"
              >
                ↑
              </button>
              <button
                name="op"
                value="down"
                disabled={i === props.items.length - 1 || itemPending}
                aria-label={`Move down: ${item.text.slice(0, 40)}`}
                className="rounded px-2 py-1 ring-1 ring-slate-300 disabled:opacity-40"
              >
                ↓
              </button>
              <button
                name="op"
                value={item.skipNext ? 'unskip' : 'skip'}
                disabled={itemPending}
                className="rounded px-2 py-1 text-xs ring-1 ring-slate-300"
              >
                {item.skipNext ? 'Don’t skip' : 'Skip next'}
              </button>
              <button
                name="op"
                value="delete"
                disabled={itemPending}
                aria-label={`Remove: ${item.text.slice(0, 40)}`}
                className="rounded px-2 py-1 text-xs text-rose-700 ring-1 ring-slate-300"
              >
                Remove
              </button>
            </form>
          </li>
        ))}
      </ol>
      {itemState && !itemState.ok ? <FormStatus state={itemState} /> : null}
      <form action={add} className="space-y-2" noValidate>
        <input type="hidden" name="queueId" value={queue.id} />
        <Field id={`item-text-${queue.id}`} label="New post" error={addState?.errors?.text?.[0]}>
          <textarea
            {...fieldAria(`item-text-${queue.id}`, { error: addState?.errors?.text?.[0] })}
            name="text"
            rows={2}
            value={draft.text}
            onChange={(e) => setDraft({ ...draft, text: e.target.value })}
            className={inputClass}
          />
        </Field>
        <Field
          id={`item-variants-${queue.id}`}
          label="Variants (optional, separated by a blank line): X and LinkedIn refuse a text they already have"
          error={addState?.errors?.variants?.[0]}
        >
          <textarea
            {...fieldAria(`item-variants-${queue.id}`, { error: addState?.errors?.variants?.[0] })}
            name="variants"
            rows={2}
            value={draft.variants}
            onChange={(e) => setDraft({ ...draft, variants: e.target.value })}
            className={inputClass}
          />
        </Field>
        <SubmitButton pending={adding} pendingLabel="Adding…">
          Add to {queue.name}
        </SubmitButton>
        {addState ? <FormStatus state={addState} /> : null}
      </form>
    </section>
  );
}

/** An item's text and variants, edited in place (a disclosure: keyboard and screen reader friendly without script). */
function EditItem({ item, action }: { item: Item; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  // What is being edited survives a refusal (the form is reset after every submission).
  const [text, setText] = useState(item.text);
  const [variants, setVariants] = useState(item.variants.join('\n\n'));
  const error = (name: string) => state?.errors?.[name]?.[0];
  const id = (name: string) => `item-${name}-${item.id}`;
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-xs text-slate-700 underline">Edit</summary>
      <form action={formAction} className="mt-2 space-y-2" noValidate>
        <input type="hidden" name="itemId" value={item.id} />
        <Field id={id('edit-text')} label="Text" error={error('text')}>
          <textarea
            {...fieldAria(id('edit-text'), { error: error('text') })}
            name="text"
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className={inputClass}
          />
        </Field>
        <Field id={id('edit-variants')} label="Variants (separated by a blank line)" error={error('variants')}>
          <textarea
            {...fieldAria(id('edit-variants'), { error: error('variants') })}
            name="variants"
            rows={2}
            value={variants}
            onChange={(e) => setVariants(e.target.value)}
            className={inputClass}
          />
        </Field>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save
        </SubmitButton>
        {state ? <FormStatus state={state} /> : null}
      </form>
    </details>
  );
}

export function NewQueueForm({ action, accounts }: { action: FormAction; accounts: { id: string; handle: string }[] }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <section aria-labelledby="new-queue" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="new-queue" className="mb-3 text-base font-semibold">
        New evergreen queue
      </h2>
      <form action={formAction} className="grid gap-3 sm:grid-cols-2" noValidate>
        <Field id="queue-name" label="Name" error={error('name')}>
          <input {...fieldAria('queue-name', { error: error('name') })} name="name" className={inputClass} />
        </Field>
        <Field id="queue-gap" label="Days between repeats of a post" error={error('minGapDays')}>
          <input
            {...fieldAria('queue-gap', { error: error('minGapDays') })}
            name="minGapDays"
            type="number"
            min={0}
            max={365}
            defaultValue={7}
            className={inputClass}
          />
        </Field>
        <CheckboxGroup
          legend="Accounts (their posting slots)"
          name="accountIds"
          options={accounts.map((a) => ({ value: a.id, label: a.handle }))}
          error={error('accountIds')}
          className="sm:col-span-2"
        />
        <div className="flex items-center gap-3 sm:col-span-2">
          <SubmitButton pending={pending} pendingLabel="Adding…">
            Add queue
          </SubmitButton>
          {state ? <FormStatus state={state} /> : null}
        </div>
      </form>
    </section>
  );
}
