'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

export function ConfirmEmailChange({ token, action }: { token: string; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  if (state?.ok) {
    return (
      <div className="space-y-3">
        <FormStatus state={state} />
        <Link href="/settings/security" className="text-sm text-indigo-700 underline">
          Back to Settings → Security
        </Link>
      </div>
    );
  }
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="token" value={token} />
      <SubmitButton pending={pending} pendingLabel="Confirming…">
        Confirm new email
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
