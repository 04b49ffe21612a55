'use client';

import Link from 'next/link';
import { useActionState, useState } from 'react';
import type { DraftMedia } from '@/components/compose/draft-parts';
import { MediaPicker } from '@/components/compose/media-picker';
import type { ComposeTemplate } from '@/components/compose/template-picker';
import { buttonClass } from '@/components/ui/button';
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

/**
 * Library → Templates: a new template, or one being edited (`template`, its fields as they are; Save replaces them).
 * Its images are uploaded as the composer's are (alt text as the workspace requires) and sent as `mediaIds`.
 */
export function TemplateForm({
  action,
  accounts,
  requireAltText,
  template,
}: {
  action: FormAction;
  accounts: { id: string; handle: string }[];
  requireAltText: boolean;
  template?: ComposeTemplate;
}) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const [media, setMedia] = useState<DraftMedia[]>(template?.media ?? []);
  const [uploading, setUploading] = useState(false);
  // A new template's form starts empty again once it is added (React resets the other fields itself): adjusted while
  // rendering the new answer, not in an effect.
  const [answered, setAnswered] = useState(state);
  if (state !== answered) {
    setAnswered(state);
    if (state?.ok && !template) setMedia([]);
  }
  const error = (name: string) => state?.errors?.[name]?.[0];
  const id = (field: string) => `template-${field}${template ? '-edit' : ''}`;
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-2" noValidate>
      {template && <input type="hidden" name="id" value={template.id} />}
      {media.map((m) => (
        <input key={m.id} type="hidden" name="mediaIds" value={m.id} />
      ))}
      <Field id={id('name')} label="Name" error={error('name')}>
        <input
          {...fieldAria(id('name'), { error: error('name') })}
          name="name"
          defaultValue={template?.name}
          className={inputClass}
        />
      </Field>
      <Field id={id('time')} label="Time of day (optional)" error={error('timeOfDay')}>
        <input
          {...fieldAria(id('time'), { error: error('timeOfDay') })}
          name="timeOfDay"
          type="time"
          defaultValue={template?.timeOfDay ?? undefined}
          className={inputClass}
        />
      </Field>
      <Field id={id('text')} label="Text, with {{variables}}" error={error('text')} className="sm:col-span-2">
        <textarea
          {...fieldAria(id('text'), { error: error('text') })}
          name="text"
          rows={3}
          placeholder="New in store: {{product}} — {{price}}"
          defaultValue={template?.text}
          className={inputClass}
        />
      </Field>
      <Field
        id={id('comment')}
        label="First comment (optional)"
        error={error('firstComment')}
        className="sm:col-span-2"
      >
        <textarea
          {...fieldAria(id('comment'), { error: error('firstComment') })}
          name="firstComment"
          rows={2}
          defaultValue={template?.firstComment ?? undefined}
          className={inputClass}
        />
      </Field>
      {accounts.length > 0 && (
        <CheckboxGroup
          legend="Default accounts"
          name="accountIds"
          options={accounts.map((a) => ({ value: a.id, label: a.handle }))}
          checked={template?.accountIds}
          error={error('accountIds')}
          className="sm:col-span-2"
        />
      )}
      <div className="sm:col-span-2">
        <MediaPicker
          media={media}
          onChange={setMedia}
          onPendingChange={setUploading}
          requireAltText={requireAltText}
          selected={[]}
          error={error('mediaIds')}
          label="Images (optional)"
        />
      </div>
      <div className="flex items-center gap-3 sm:col-span-2">
        <SubmitButton pending={pending} disabled={uploading} pendingLabel={template ? 'Saving…' : 'Adding…'}>
          {template ? 'Save template' : 'Add template'}
        </SubmitButton>
        {template && (
          <Link href="/library" className={buttonClass('secondary')}>
            Done
          </Link>
        )}
        {uploading && <p className="text-sm text-slate-600">Waiting for the images being added…</p>}
        {state ? <FormStatus state={state} /> : null}
      </div>
    </form>
  );
}
