'use client';

import { useActionState, useSyncExternalStore } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

const subscribe = () => () => {};

/** "Create client link": for one post or everything pending this week; the link is shown once, to copy. */
export function CreateApprovalLink({
  action,
  postId,
  label,
}: {
  action: FormAction<{ path: string }>;
  postId?: string;
  label: string;
}) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const origin = useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => '',
  );
  return (
    <form action={formAction} className="space-y-2">
      <input type="hidden" name="scope" value={postId ? 'post' : 'week'} />
      {postId && <input type="hidden" name="postId" value={postId} />}
      <SubmitButton pending={pending} pendingLabel="Creating…">
        {label}
      </SubmitButton>
      <FormStatus state={state} />
      {state?.ok && state.data && (
        <label className="block text-sm">
          <span className="font-medium">Client link</span>
          <input
            readOnly
            value={`${origin}${state.data.path}`}
            onFocus={(e) => e.target.select()}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
          />
        </label>
      )}
    </form>
  );
}
