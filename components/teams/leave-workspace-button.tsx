'use client';

import { useActionState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Leaves the active workspace (refused for its last admin). */
export function LeaveWorkspaceButton({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-2">
      <SubmitButton variant="secondary" pending={pending} pendingLabel="Leaving…">
        Leave workspace
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
