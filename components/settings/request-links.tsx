'use client';

import { useActionState, useSyncExternalStore } from 'react';
import { RevokeApprovalLink } from '@/components/approvals/revoke-link';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

const subscribe = () => () => {};

type Props = {
  links: { id: string; label: string; createdAt: string }[];
  createAction: FormAction<{ path: string }>;
  revokeAction: FormAction;
};

/** Settings → Request link: create one per client (the URL is shown once), list and revoke them. */
export function RequestLinks({ links, createAction, revokeAction }: Props) {
  const [state, formAction, pending] = useActionState(createAction, undefined);
  const origin = useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => '',
  );
  return (
    <div className="space-y-4">
      <form action={formAction} className="flex flex-wrap items-end gap-3">
        <TextField
          id="request-link-label"
          name="label"
          label="Link name"
          placeholder="e.g. Acme Bakery"
          error={state?.errors?.label?.[0]}
          fieldClassName="min-w-64"
        />
        <TextField
          id="request-link-expires"
          name="expiresInDays"
          label="Expires after (days, optional)"
          type="number"
          min={1}
          max={365}
          placeholder="never"
          error={state?.errors?.expiresInDays?.[0]}
          fieldClassName="w-48"
        />
        <SubmitButton pending={pending} pendingLabel="Creating…">
          Create request link
        </SubmitButton>
      </form>
      <FormStatus state={state} />
      {state?.ok && state.data && (
        <label className="block text-sm">
          <span className="font-medium">Request link</span>
          <input
            readOnly
            value={`${origin}${state.data.path}`}
            onFocus={(e) => e.target.select()}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
          />
        </label>
      )}
      {links.length > 0 && (
        <ul aria-label="Request links" className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
          {links.map((l) => (
            <li key={l.id} className="flex items-center justify-between gap-3 p-3 text-sm">
              <span>
                {l.label} · created <LocalTime iso={l.createdAt} />
              </span>
              <RevokeApprovalLink action={revokeAction} linkId={l.id} label={l.label} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
