'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, TextField } from '@/components/ui/field';
import { LocalTime } from '@/components/ui/local-time';
import { OneTimeSecret } from '@/components/ui/one-time-secret';
import { SubmitButton } from '@/components/ui/submit-button';
import { SCOPE_LABELS } from '@/lib/api/scope-labels';
import type { FormAction } from '@/lib/auth/action';

type Key = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

const OPT_IN = new Set([
  'accounts:write',
  'webhooks:write',
  'workspace:write',
  'posts:approve',
  'inbox:read',
  'inbox:write',
]);

export function CreateApiKeyForm({ action }: { action: FormAction<{ token: string }> }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-3">
      <TextField
        id="key-name"
        name="name"
        label="Key name"
        placeholder="e.g. Zapier"
        className="max-w-sm"
        error={state?.errors?.name?.[0]}
      />
      <fieldset aria-describedby="key-scopes-error">
        <legend className="text-sm font-medium">Scopes</legend>
        {Object.entries(SCOPE_LABELS).map(([scope, label]) => (
          <label key={scope} className="mt-1 flex items-center gap-2 text-sm">
            {/* Changing slots, settings or webhooks and approving are opt-in: a key gets the database default unless asked. */}
            <input type="checkbox" name="scopes" value={scope} defaultChecked={!OPT_IN.has(scope)} />
            <code className="text-xs">{scope}</code> <span className="text-slate-600">{label}</span>
          </label>
        ))}
        <FieldError id="key-scopes" error={state?.errors?.scopes?.[0]} />
      </fieldset>
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create API key
      </SubmitButton>
      {state?.ok && state.data && (
        <OneTimeSecret message={state.message} value={state.data.token} testId="new-api-key" />
      )}
      {state && !state.ok && (
        <p role="alert" className="text-sm text-rose-700">
          {state.message}
        </p>
      )}
    </form>
  );
}

export function ApiKeyRow({ apiKey, canRevoke, revoke }: { apiKey: Key; canRevoke: boolean; revoke: FormAction }) {
  const [state, formAction, pending] = useActionState(revoke, undefined);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <div>
        <p className="font-medium">
          {apiKey.name} <code className="ml-1 text-xs text-slate-500">{apiKey.prefix}…</code>
        </p>
        <p className="text-xs text-slate-600" aria-label="Scopes">
          {apiKey.scopes.join(' · ')}
        </p>
        <p className="text-xs text-slate-600">
          Created {apiKey.createdAt.slice(0, 10)} ·{' '}
          {apiKey.lastUsedAt ? (
            <>
              last used <LocalTime iso={apiKey.lastUsedAt} />
            </>
          ) : (
            'never used'
          )}
          {apiKey.revokedAt && ` · revoked ${apiKey.revokedAt.slice(0, 10)}`}
        </p>
      </div>
      {!apiKey.revokedAt && canRevoke && (
        <form action={formAction}>
          <input type="hidden" name="apiKeyId" value={apiKey.id} />
          <Button type="submit" variant="danger" disabled={pending} aria-label={`Revoke ${apiKey.name}`}>
            {pending ? 'Revoking…' : 'Revoke'}
          </Button>
        </form>
      )}
      {state?.message && (
        <p role="status" className="w-full text-xs text-slate-600">
          {state.message}
        </p>
      )}
    </li>
  );
}
