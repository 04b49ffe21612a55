'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import type { ActionState } from '@/lib/auth/action';

type Props = { name: string; canEdit: boolean; action: (state: ActionState | undefined, data: FormData) => Promise<ActionState> };

export function RenameWorkspaceForm({ name, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = state?.errors?.name?.[0];
  return (
    <form action={formAction} className="space-y-3">
      <div>
        <label htmlFor="workspace-name" className="block text-sm font-medium text-slate-900">Workspace name</label>
        <input
          id="workspace-name"
          name="name"
          defaultValue={name}
          disabled={!canEdit}
          aria-invalid={Boolean(error)}
          aria-describedby="workspace-name-error"
          className="mt-1 block w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm disabled:bg-slate-100"
        />
        <p id="workspace-name-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{error}</p>
      </div>
      <Button type="submit" disabled={!canEdit || pending}>{pending ? 'Saving…' : 'Save'}</Button>
      <p role="status" aria-live="polite" className={`text-sm ${state?.ok ? 'text-emerald-700' : 'text-rose-700'}`}>{state?.message}</p>
      {!canEdit && <p className="text-sm text-slate-600">Only admins can rename the workspace.</p>}
    </form>
  );
}
