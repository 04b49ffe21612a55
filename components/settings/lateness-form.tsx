'use client';

import { useActionState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = { minutes: number; canEdit: boolean; action: FormAction };

export function LatenessForm({ minutes, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = state?.errors?.minutes?.[0];
  return (
    <form action={formAction} className="mt-6 space-y-2" noValidate>
      <Field
        id="lateness"
        label="Lateness limit (minutes)"
        error={error}
        description="A post that cannot go out within this time after its scheduled time (e.g. the server was down) is marked missed instead of being published late."
      >
        <div className="flex items-center gap-3">
          <input
            {...fieldAria('lateness', { error, description: true })}
            name="minutes"
            type="number"
            min={1}
            max={10080}
            defaultValue={minutes}
            disabled={!canEdit}
            className={`${inputClass} w-32!`}
          />
          <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
            Save limit
          </SubmitButton>
        </div>
      </Field>
      <FormStatus state={state} successOnly />
    </form>
  );
}
