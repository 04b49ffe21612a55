'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { useTimeZone } from '@/components/ui/use-time-zone';
import type { ActionState } from '@/lib/auth/action';

type Account = { id: string; handle: string };
type Props = { postId: string; text: string; accounts: Account[]; targets: string[]; action: (state: ActionState | undefined, data: FormData) => Promise<ActionState> };

export function EditPostForm({ postId, text, accounts, targets, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const timeZone = useTimeZone();
  return (
    <form action={formAction} className="space-y-3 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-base font-semibold">Edit before it goes out</h2>
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="timeZone" value={timeZone} />
      <div>
        <label htmlFor="edit-text" className="block text-sm font-medium">Text</label>
        <textarea id="edit-text" name="text" rows={4} defaultValue={text} aria-describedby="edit-text-error" aria-invalid={Boolean(state?.errors?.text)}
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm" />
        <p id="edit-text-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{state?.errors?.text?.[0]}</p>
      </div>
      <fieldset aria-describedby="edit-accounts-error">
        <legend className="text-sm font-medium">Accounts</legend>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          {accounts.map((a) => (
            <label key={a.id} className="flex items-center gap-1.5">
              <input type="checkbox" name="accountIds" value={a.id} defaultChecked={targets.includes(a.id)} />{a.handle}
            </label>
          ))}
        </div>
        <p id="edit-accounts-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{state?.errors?.accountIds?.[0]}</p>
      </fieldset>
      <div>
        <label htmlFor="edit-time" className="block text-sm font-medium">New date and time ({timeZone}) — leave empty to keep</label>
        <input id="edit-time" name="localDateTime" type="datetime-local" aria-describedby="edit-time-error"
          className="mt-1 block w-full max-w-xs rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm" />
        <p id="edit-time-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{state?.errors?.localDateTime?.[0] ?? state?.errors?.scheduledAt?.[0]}</p>
      </div>
      <Button type="submit" disabled={pending}>{pending ? 'Saving…' : 'Save changes'}</Button>
      {state?.message && <p role="status" className={`text-sm ${state.ok ? 'text-emerald-700' : 'text-rose-700'}`}>{state.message}</p>}
    </form>
  );
}
