'use client';

import { useActionState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Item = { id: string; title: string; badge?: string; body: string };

/** A library's items (snippets or templates), each with its Delete. */
export function LibraryList(props: { label: string; items: Item[]; remove: FormAction }) {
  const [state, formAction, pending] = useActionState(props.remove, undefined);
  if (props.items.length === 0) return <p className="mb-4 text-sm text-slate-600">None yet.</p>;
  return (
    <>
      <ul
        role="list"
        aria-label={props.label}
        className="mb-4 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
      >
        {props.items.map((item) => (
          <li key={item.id} className="flex items-start justify-between gap-4 px-4 py-3 text-sm">
            <div className="min-w-0">
              <p className="font-medium text-slate-900">
                {item.title}
                {item.badge && (
                  <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs text-slate-700">{item.badge}</span>
                )}
              </p>
              <p className="mt-1 whitespace-pre-wrap text-slate-700">{item.body}</p>
            </div>
            <form action={formAction}>
              <input type="hidden" name="id" value={item.id} />
              <SubmitButton
                variant="secondary"
                pending={pending}
                pendingLabel="Deleting…"
                aria-label={`Delete ${item.title}`}
              >
                Delete
              </SubmitButton>
            </form>
          </li>
        ))}
      </ul>
      {state ? <FormStatus state={state} /> : null}
    </>
  );
}

export function SnippetForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-3" noValidate>
      <Field id="snippet-name" label="Name" error={error('name')}>
        <input {...fieldAria('snippet-name', { error: error('name') })} name="name" className={inputClass} />
      </Field>
      <Field id="snippet-kind" label="Kind" error={error('kind')}>
        <select {...fieldAria('snippet-kind', { error: error('kind') })} name="kind" className={inputClass}>
          <option value="hashtags">Hashtag group</option>
          <option value="signature">Signature</option>
          <option value="disclaimer">Disclaimer</option>
          <option value="other">Other</option>
        </select>
      </Field>
      <Field id="snippet-text" label="Text" error={error('text')} className="sm:col-span-3">
        <textarea
          {...fieldAria('snippet-text', { error: error('text') })}
          name="text"
          rows={2}
          className={inputClass}
        />
      </Field>
      <div className="flex items-center gap-3 sm:col-span-3">
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add snippet
        </SubmitButton>
        {state ? <FormStatus state={state} /> : null}
      </div>
    </form>
  );
}

export function TemplateForm({ action, accounts }: { action: FormAction; accounts: { id: string; handle: string }[] }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-2" noValidate>
      <Field id="template-name" label="Name" error={error('name')}>
        <input {...fieldAria('template-name', { error: error('name') })} name="name" className={inputClass} />
      </Field>
      <Field id="template-time" label="Time of day (optional)" error={error('timeOfDay')}>
        <input
          {...fieldAria('template-time', { error: error('timeOfDay') })}
          name="timeOfDay"
          type="time"
          className={inputClass}
        />
      </Field>
      <Field id="template-text" label="Text, with {{variables}}" error={error('text')} className="sm:col-span-2">
        <textarea
          {...fieldAria('template-text', { error: error('text') })}
          name="text"
          rows={3}
          placeholder="New in store: {{product}} — {{price}}"
          className={inputClass}
        />
      </Field>
      <Field
        id="template-comment"
        label="First comment (optional)"
        error={error('firstComment')}
        className="sm:col-span-2"
      >
        <textarea
          {...fieldAria('template-comment', { error: error('firstComment') })}
          name="firstComment"
          rows={2}
          className={inputClass}
        />
      </Field>
      {accounts.length > 0 && (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-900">Default accounts</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {accounts.map((a) => (
              <label key={a.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="accountIds" value={a.id} className="h-4 w-4" /> {a.handle}
              </label>
            ))}
          </div>
          {error('accountIds') && <p className="text-sm text-rose-700">{error('accountIds')}</p>}
        </fieldset>
      )}
      <div className="flex items-center gap-3 sm:col-span-2">
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add template
        </SubmitButton>
        {state ? <FormStatus state={state} /> : null}
      </div>
    </form>
  );
}
