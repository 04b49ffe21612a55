'use client';

import { useState } from 'react';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { Field, fieldAria, inputClass, TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** A slug suggested from the name until the admin edits the slug themselves. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);

export function NewWorkspaceForm({ zones, action }: { zones: string[]; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const zoneError = state?.errors?.timeZone?.[0];
  return (
    <form onSubmit={onSubmit} className="max-w-md space-y-4" noValidate>
      <TextField
        id="workspace-name"
        name="name"
        label="Name"
        required
        onChange={(e) => !slugEdited && setSlug(slugOf(e.target.value))}
        error={state?.errors?.name?.[0]}
      />
      <TextField
        id="workspace-slug"
        name="slug"
        label="Slug"
        required
        value={slug}
        onChange={(e) => {
          setSlugEdited(true);
          setSlug(e.target.value);
        }}
        description="Lower-case letters, digits and hyphens; unique across this Semel."
        error={state?.errors?.slug?.[0]}
      />
      <Field id="workspace-zone" label="Time zone" error={zoneError}>
        <select
          {...fieldAria('workspace-zone', { error: zoneError })}
          name="timeZone"
          defaultValue="UTC"
          className={inputClass}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </Field>
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create workspace
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
