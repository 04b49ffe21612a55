'use client';

import { useActionState, type ReactNode } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = {
  /** The checkbox's field name (sent as "on" when checked). */
  name: string;
  checked: boolean;
  canEdit: boolean;
  action: FormAction;
  label: string;
  description: ReactNode;
  submitLabel: string;
};

/** Settings → General: one workspace rule that is on or off, with what it means. */
export function ToggleSettingForm({ name, checked, canEdit, action, label, description, submitLabel }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="mt-6 space-y-2" noValidate>
      <div className="flex items-start gap-3">
        <input
          id={name}
          name={name}
          type="checkbox"
          defaultChecked={checked}
          disabled={!canEdit}
          aria-describedby={`${name}-description`}
          className="mt-1 h-4 w-4"
        />
        <div>
          <label htmlFor={name} className="text-sm font-medium text-slate-900">
            {label}
          </label>
          <p id={`${name}-description`} className="text-sm text-slate-600">
            {description}
          </p>
        </div>
      </div>
      <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
        {submitLabel}
      </SubmitButton>
      {/* Only once it has answered: a section may hold several forms, each with its own status. */}
      {state ? <FormStatus state={state} /> : null}
    </form>
  );
}
