'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';

const MESSAGES: Record<string, string> = {
  TooManyAttempts: 'Too many failed sign-in attempts. Try again later (in about 15 minutes).',
  TwoFactorRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  InvalidCode: 'That code is wrong or was already used. Try the current code.',
};
const GENERIC = 'Wrong email or password.';

export function SignInForm({
  callbackUrl,
  github,
  oidc = null,
}: {
  callbackUrl: string;
  github: boolean;
  /** The single sign-on button's name when OIDC is configured. */
  oidc?: string | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Shown once the password was accepted and the account asks for a second factor.
  const [needsCode, setNeedsCode] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    const data = new FormData(event.currentTarget);
    const result = await signIn('credentials', {
      redirect: false,
      email: data.get('email'),
      password: data.get('password'),
      code: data.get('code') ?? '',
    });
    if (!result || result.error) {
      if (result?.error === 'TwoFactorRequired' || result?.error === 'InvalidCode') setNeedsCode(true);
      setError(MESSAGES[result?.error ?? ''] ?? GENERIC);
      setPending(false);
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
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
      {needsCode && (
        <div>
          <label htmlFor="code" className="block text-sm font-medium">
            Authentication code
          </label>
          <input
            id="code"
            name="code"
            type="text"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            required
            aria-describedby="code-hint"
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
          />
          <p id="code-hint" className="mt-1 text-xs text-slate-600">
            From your authenticator app, or one of your recovery codes.
          </p>
        </div>
      )}
      <div role="alert" aria-live="assertive" className="min-h-5 text-sm text-rose-700">
        {error}
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
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
