'use client';

import { useActionState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = { timeZone: string; zones: string[]; canEdit: boolean; action: FormAction };

/** The workspace's own time zone; the calendar shows it beside the viewer's when they differ. */
export function TimeZoneForm({ timeZone, zones, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = state?.errors?.timeZone?.[0];
  return (
    <form action={formAction} className="mt-6 space-y-2" noValidate>
      <Field
        id="workspace-time-zone"
        label="Workspace time zone"
        error={error}
        description="Everyone sees times in their own zone; the calendar also names this one when it differs."
      >
        <div className="flex items-center gap-3">
          <select
            {...fieldAria('workspace-time-zone', { error, description: true })}
            name="timeZone"
            defaultValue={timeZone}
            disabled={!canEdit}
            className={`${inputClass} w-72!`}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
          <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
            Save time zone
          </SubmitButton>
        </div>
      </Field>
      <FormStatus state={state} successOnly />
    </form>
  );
}
