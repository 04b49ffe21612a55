'use client';

import { startRegistration } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useActionState, useState, useTransition, type FormEvent } from 'react';
import { passkeyPromptError } from '@/components/auth/passkey-prompt-error';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';

export type PasskeyView = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** The caller's passkeys (name, added, last used; remove) and the form that adds one through the browser's prompt. */
export function PasskeyList({
  passkeys,
  options,
  register,
  remove,
}: {
  passkeys: PasskeyView[];
  options: () => Promise<ActionState<PublicKeyCredentialCreationOptionsJSON>>;
  register: FormAction;
  remove: FormAction;
}) {
  const [state, setState] = useState<ActionState | undefined>(undefined);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '');
    startTransition(async () => {
      const prepared = await options();
      if (!prepared.ok || !prepared.data) return setState({ ok: false, message: prepared.message });
      let response;
      try {
        response = await startRegistration({ optionsJSON: prepared.data });
      } catch (error) {
        return setState({ ok: false, message: passkeyPromptError(error) });
      }
      const data = new FormData();
      data.set('name', name);
      data.set('response', JSON.stringify(response));
      const result = await register(undefined, data);
      setState(result);
      if (result.ok) form.reset();
    });
  }

  const nameError = state?.errors?.name?.[0];
  return (
    <div>
      {passkeys.length === 0 ? (
        <p className="text-sm text-slate-600">No passkeys yet.</p>
      ) : (
        <ul role="list" aria-label="Passkeys" className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
          {passkeys.map((p) => (
            <PasskeyRow key={p.id} passkey={p} action={remove} />
          ))}
        </ul>
      )}
      <form onSubmit={onSubmit} className="mt-4 flex flex-wrap items-end gap-3" noValidate>
        <Field id="passkey-name" label="Passkey name" error={nameError} className="min-w-56 flex-1">
          <input
            {...fieldAria('passkey-name', { error: nameError })}
            name="name"
            maxLength={60}
            required
            placeholder="Work laptop"
            className={inputClass}
          />
        </Field>
        <SubmitButton pending={pending} pendingLabel="Waiting for the passkey…" className="mb-6">
          Add a passkey
        </SubmitButton>
      </form>
      <FormStatus state={state} />
    </div>
  );
}

function PasskeyRow({ passkey, action }: { passkey: PasskeyView; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const labelId = `passkey-${passkey.id}`;
  return (
    <li aria-labelledby={labelId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <div>
        <p id={labelId} className="font-medium">
          {passkey.name}
        </p>
        <p className="text-slate-600">
          added <LocalTime iso={passkey.createdAt} /> · last used{' '}
          {passkey.lastUsedAt ? <LocalTime iso={passkey.lastUsedAt} /> : 'never'}
        </p>
      </div>
      <form action={formAction}>
        <input type="hidden" name="passkeyId" value={passkey.id} />
        <SubmitButton
          variant="secondary"
          pending={pending}
          pendingLabel="Removing…"
          aria-label={`Remove passkey ${passkey.name}`}
        >
          Remove
        </SubmitButton>
      </form>
      {state?.message && !state.ok && (
        <p role="alert" className="w-full text-xs text-rose-700">
          {state.message}
        </p>
      )}
    </li>
  );
}
