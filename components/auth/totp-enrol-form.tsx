'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Confirms the shown secret with a current code; then shows the recovery codes, once. */
export function TotpEnrolForm({ action }: { action: FormAction<{ recoveryCodes: string[] }> }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  if (state?.ok && state.data) {
    return (
      <div className="space-y-4">
        <div role="status" className="rounded-md bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-semibold">Two-factor sign-in is on.</p>
          <p className="mt-1">
            Save these recovery codes somewhere safe now: each signs you in once if you lose your phone. They are not
            shown again.
          </p>
          <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm" data-testid="recovery-codes">
            {state.data.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </div>
        <Link
          href="/settings/security"
          className="inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          I saved them — continue
        </Link>
      </div>
    );
  }
  return (
    <form action={formAction} className="space-y-3" noValidate>
      <TextField
        id="code"
        name="code"
        label="Code from your app"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        error={state?.errors?.code?.[0]}
      />
      <SubmitButton pending={pending} pendingLabel="Checking…">
        Turn on two-factor sign-in
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
