'use client';

import { useActionState } from 'react';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = { name: string; canEdit: boolean; action: FormAction };

export function RenameWorkspaceForm({ name, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-3">
      <TextField
        id="workspace-name"
        name="name"
        label="Workspace name"
        defaultValue={name}
        disabled={!canEdit}
        className="max-w-sm"
        error={state?.errors?.name?.[0]}
      />
      <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
        Save
      </SubmitButton>
      <FormStatus state={state} />
      {!canEdit && <p className="text-sm text-slate-600">Only admins can rename the workspace.</p>}
    </form>
  );
}
