'use client';

import { useActionState } from 'react';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

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
        <CheckboxGroup
          legend="Default accounts"
          name="accountIds"
          options={accounts.map((a) => ({ value: a.id, label: a.handle }))}
          error={error('accountIds')}
          className="sm:col-span-2"
        />
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
