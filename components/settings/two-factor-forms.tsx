'use client';

import { useActionState } from 'react';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Turns TOTP off after a current code, a recovery code or the password. */
export function DisableTotpForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="max-w-sm space-y-3" noValidate>
      <TextField
        id="proof"
        name="proof"
        type="password"
        label="Current code or password"
        autoComplete="off"
        required
        error={state?.errors?.proof?.[0]}
      />
      <SubmitButton pending={pending} pendingLabel="Turning off…" variant="danger">
        Turn off two-factor sign-in
      </SubmitButton>
      <FormStatus state={state} successOnly />
    </form>
  );
}

/** A new email and the current password: a link to the new address confirms it. */
export function EmailChangeForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="max-w-sm space-y-3" noValidate>
      <TextField
        id="new-email"
        name="email"
        type="email"
        label="New email"
        autoComplete="email"
        required
        error={state?.errors?.email?.[0]}
      />
      <TextField
        id="email-password"
        name="password"
        type="password"
        label="Current password"
        autoComplete="current-password"
        required
        error={state?.errors?.password?.[0]}
      />
      <SubmitButton pending={pending} pendingLabel="Sending…">
        Send confirmation link
      </SubmitButton>
      {/* Field errors show at their fields; a refusal of the whole form (too many requests) shows here. */}
      <FormStatus state={state} />
    </form>
  );
}
