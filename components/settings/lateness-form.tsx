'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import type { ActionState } from '@/lib/auth/action';

type Props = { minutes: number; canEdit: boolean; action: (state: ActionState | undefined, data: FormData) => Promise<ActionState> };

export function LatenessForm({ minutes, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const error = state?.errors?.minutes?.[0];
  return (
    <form action={formAction} className="mt-6 space-y-2" noValidate>
      <label htmlFor="lateness" className="block text-sm font-medium text-slate-900">Lateness limit (minutes)</label>
      <p id="lateness-help" className="text-sm text-slate-600">A post that cannot go out within this time after its scheduled time (e.g. the server was down) is marked missed instead of being published late.</p>
      <div className="flex items-center gap-3">
        <input id="lateness" name="minutes" type="number" min={1} max={10080} defaultValue={minutes} disabled={!canEdit}
          aria-invalid={Boolean(error)} aria-describedby="lateness-help lateness-error"
          className="block w-32 rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm disabled:bg-slate-100" />
        <Button type="submit" disabled={!canEdit || pending}>{pending ? 'Saving…' : 'Save limit'}</Button>
      </div>
      <p id="lateness-error" aria-live="polite" className="text-sm text-rose-700">{error}</p>
      {state?.ok && <p role="status" className="text-sm text-emerald-700">{state.message}</p>}
    </form>
  );
}
