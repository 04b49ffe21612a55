'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { SCOPE_LABELS } from '@/lib/api/scope-labels';
import type { ActionState } from '@/lib/auth/action';

type Key = { id: string; name: string; prefix: string; scopes: string[]; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };
type Action<T = undefined> = (state: ActionState<T> | undefined, data: FormData) => Promise<ActionState<T>>;

export function CreateApiKeyForm({ action }: { action: Action<{ token: string }> }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-3">
      <div>
        <label htmlFor="key-name" className="block text-sm font-medium">Key name</label>
        <input id="key-name" name="name" placeholder="e.g. Zapier" className="mt-1 block w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
          aria-describedby="key-name-error" aria-invalid={Boolean(state?.errors?.name)} />
        <p id="key-name-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{state?.errors?.name?.[0]}</p>
      </div>
      <fieldset aria-describedby="key-scopes-error">
        <legend className="text-sm font-medium">Scopes</legend>
        {Object.entries(SCOPE_LABELS).map(([scope, label]) => (
          <label key={scope} className="mt-1 flex items-center gap-2 text-sm">
            <input type="checkbox" name="scopes" value={scope} defaultChecked />
            <code className="text-xs">{scope}</code> <span className="text-slate-600">{label}</span>
          </label>
        ))}
        <p id="key-scopes-error" aria-live="polite" className="mt-1 text-sm text-rose-700">{state?.errors?.scopes?.[0]}</p>
      </fieldset>
      <Button type="submit" disabled={pending}>{pending ? 'Creating…' : 'Create API key'}</Button>
      {state?.ok && state.data && (
        <div role="status" className="rounded-md bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-semibold">{state.message}</p>
          <code className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs" data-testid="new-api-key">{state.data.token}</code>
        </div>
      )}
      {state && !state.ok && <p role="alert" className="text-sm text-rose-700">{state.message}</p>}
    </form>
  );
}

export function ApiKeyRow({ apiKey, canRevoke, revoke }: { apiKey: Key; canRevoke: boolean; revoke: Action }) {
  const [state, formAction, pending] = useActionState(revoke, undefined);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <div>
        <p className="font-medium">{apiKey.name} <code className="ml-1 text-xs text-slate-500">{apiKey.prefix}…</code></p>
        <p className="text-xs text-slate-600" aria-label="Scopes">{apiKey.scopes.join(' · ')}</p>
        <p className="text-xs text-slate-600">
          Created {apiKey.createdAt.slice(0, 10)} · {apiKey.lastUsedAt ? <>last used <LocalTime iso={apiKey.lastUsedAt} /></> : 'never used'}
          {apiKey.revokedAt && ` · revoked ${apiKey.revokedAt.slice(0, 10)}`}
        </p>
      </div>
      {!apiKey.revokedAt && canRevoke && (
        <form action={formAction}>
          <input type="hidden" name="apiKeyId" value={apiKey.id} />
          <Button type="submit" variant="danger" disabled={pending} aria-label={`Revoke ${apiKey.name}`}>{pending ? 'Revoking…' : 'Revoke'}</Button>
        </form>
      )}
      {state?.message && <p role="status" className="w-full text-xs text-slate-600">{state.message}</p>}
    </li>
  );
}
