'use client';

import { useEffect, useRef } from 'react';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { Field, fieldAria, inputClass, TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Invite by email with a role; the invitation email carries a single-use link valid for 7 days. */
export function InviteMemberForm({ action }: { action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.ok) form.current?.reset();
  }, [state]);
  const roleError = state?.errors?.role?.[0];
  return (
    <form ref={form} onSubmit={onSubmit} className="mt-4 space-y-2" noValidate>
      <div className="flex flex-wrap items-start gap-3">
        <TextField
          id="invite-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="off"
          required
          fieldClassName="w-72"
          error={state?.errors?.email?.[0]}
        />
        <Field id="invite-role" label="Role" error={roleError}>
          <select
            {...fieldAria('invite-role', { error: roleError })}
            name="role"
            defaultValue="manager"
            className={inputClass}
          >
            <option value="viewer">viewer</option>
            <option value="manager">manager</option>
            <option value="admin">admin</option>
          </select>
        </Field>
        <SubmitButton pending={pending} pendingLabel="Sending…" className="mt-6">
          Send invitation
        </SubmitButton>
      </div>
      <FormStatus state={state} />
    </form>
  );
}
