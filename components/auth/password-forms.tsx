'use client';

import Link from 'next/link';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import type { FormAction } from '@/lib/auth/action';

/** "Forgot password": one email field; the answer is the same for every address. */
export function ForgotPasswordForm({ action }: { action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <TextField
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        error={state?.errors?.email?.[0]}
      />
      <FormStatus state={state} />
      <SubmitButton pending={pending} pendingLabel="Sending…" className="w-full">
        Send reset link
      </SubmitButton>
    </form>
  );
}

/** The new password for a one-time link; the token rides along in a hidden field, never in a log line. */
export function SetPasswordForm({ token, action }: { token: string; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  if (state?.ok) {
    return (
      <div className="mt-4 space-y-4">
        <FormStatus state={state} successOnly />
        <Link href="/signin" className="inline-block text-sm font-medium text-indigo-700 underline">
          Go to sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="mt-4 space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      <TextField
        id="password"
        name="password"
        type="password"
        label="New password"
        autoComplete="new-password"
        error={state?.errors?.password?.[0]}
        description="At least 12 characters; common passwords are refused."
      />
      <FormStatus state={state} />
      <SubmitButton pending={pending} pendingLabel="Saving…" className="w-full">
        Save password
      </SubmitButton>
    </form>
  );
}
