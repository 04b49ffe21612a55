'use client';

import { startAuthentication } from '@simplewebauthn/browser';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import type { PasskeySecondFactorStart } from '@/lib/auth/credentials';
import { offeredSecondFactors, SIGN_IN_ERRORS, type SecondFactorKind } from '@/lib/auth/sign-in-errors';
import { passkeyPromptError } from './passkey-prompt-error';
import { SecondFactorStep } from './second-factor-step';

const MESSAGES: Record<string, string> = {
  [SIGN_IN_ERRORS.throttled]: 'Too many failed sign-in attempts. Try again later (in about 15 minutes).',
  [SIGN_IN_ERRORS.wrongCode]: 'That code is wrong or was already used. Try the current code.',
  [SIGN_IN_ERRORS.passkey]: 'This passkey was not accepted. Try again, or use another of your passkeys.',
  [SIGN_IN_ERRORS.noPasskey]: 'This account has no passkey now. Sign in again.',
};
const GENERIC = 'Wrong email or password.';

/** What the second step asks for, in the words of the factors it offers. */
function secondStepMessage(factors: SecondFactorKind[]) {
  const totp = factors.includes('totp');
  if (!factors.includes('passkey')) return 'Enter the 6-digit code from your authenticator app, or a recovery code.';
  return totp
    ? 'Enter the 6-digit code from your authenticator app or a recovery code, or use a passkey.'
    : 'Use your passkey to finish signing in.';
}

const withoutPasskey = (factors: SecondFactorKind[]) => {
  const left = factors.filter((k) => k !== 'passkey');
  return left.length > 0 ? left : null;
};

export function SignInForm({
  callbackUrl,
  github,
  oidc = null,
  passkeyOptions,
}: {
  callbackUrl: string;
  github: boolean;
  /** The single sign-on button's name when OIDC is configured. */
  oidc?: string | null;
  /** The passkey prompt's options for the second step; the server checks the password before it gives any. */
  passkeyOptions: (input: { email: string; password: string }) => Promise<PasskeySecondFactorStart>;
}) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [waitingForPasskey, setWaitingForPasskey] = useState(false);
  // Shown once the password was accepted and the account asks for a second factor: which ones it offers.
  const [factors, setFactors] = useState<SecondFactorKind[] | null>(null);

  function refused(code: string | undefined) {
    const offered = offeredSecondFactors(code);
    if (offered) setFactors(offered);
    // Removed elsewhere since the step was shown: offer what is left (nothing: the password alone will do).
    if (code === SIGN_IN_ERRORS.noPasskey) setFactors((f) => withoutPasskey(f ?? []));
    setError(offered ? secondStepMessage(offered) : (MESSAGES[code ?? ''] ?? GENERIC));
    setPending(false);
    setWaitingForPasskey(false);
  }

  async function send(fields: Record<string, FormDataEntryValue | string | null>) {
    const result = await signIn('credentials', { redirect: false, ...fields });
    if (!result || result.error) return refused(result?.error ?? undefined);
    router.replace(callbackUrl);
    router.refresh();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // With only a passkey to offer, Enter in the form means "use it".
    if (factors?.length === 1 && factors[0] === 'passkey') return signInWithPasskey();
    if (pending) return;
    setPending(true);
    setError(null);
    const data = new FormData(event.currentTarget);
    await send({ email: data.get('email'), password: data.get('password'), code: data.get('code') ?? '' });
  }

  async function signInWithPasskey() {
    if (pending || !form.current) return;
    setPending(true);
    setWaitingForPasskey(true);
    setError(null);
    const data = new FormData(form.current);
    const email = String(data.get('email') ?? '');
    const password = String(data.get('password') ?? '');
    let response;
    try {
      const started = await passkeyOptions({ email, password });
      if (!started.ok) return refused(started.error);
      response = await startAuthentication({ optionsJSON: started.options });
    } catch (caught) {
      setError(passkeyPromptError(caught));
      setPending(false);
      setWaitingForPasskey(false);
      return;
    }
    await send({ email, password, passkey: JSON.stringify(response) });
  }

  return (
    <form ref={form} onSubmit={onSubmit} className="space-y-4" noValidate>
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
        />
      </div>
      {factors && (
        <SecondFactorStep
          factors={factors}
          pending={pending}
          waitingForPasskey={waitingForPasskey}
          onPasskey={() => void signInWithPasskey()}
        />
      )}
      <div role="alert" aria-live="assertive" className="min-h-5 text-sm text-rose-700">
        {error}
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending && !waitingForPasskey ? 'Signing in…' : 'Sign in'}
      </Button>
      {github && (
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          onClick={() => void signIn('github', { callbackUrl })}
        >
          Sign in with GitHub
        </Button>
      )}
      {oidc && (
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          onClick={() => void signIn('oidc', { callbackUrl })}
        >
          Sign in with {oidc}
        </Button>
      )}
    </form>
  );
}
