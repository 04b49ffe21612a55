'use client';

import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Deleting needs the workspace's name typed: its scheduled posts are canceled and its data removed. */
export function DeleteWorkspaceForm({ name, action }: { name: string; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <TextField
        id="delete-confirm"
        name="confirmName"
        label={`Type ${name} to confirm`}
        autoComplete="off"
        className="max-w-sm"
        error={state?.errors?.confirmName?.[0]}
      />
      <SubmitButton variant="danger" pending={pending} pendingLabel="Deleting…">
        Delete workspace
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
