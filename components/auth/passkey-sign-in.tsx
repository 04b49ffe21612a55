'use client';

import { startAuthentication } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { passkeyPromptError } from './passkey-prompt-error';
import { Button } from '@/components/ui/button';

/** "Sign in with a passkey": no email, no password; the server verifies the assertion (provider `passkey`). */
export function PasskeySignIn({
  callbackUrl,
  options,
}: {
  callbackUrl: string;
  options: () => Promise<PublicKeyCredentialRequestOptionsJSON>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onClick() {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const response = await startAuthentication({ optionsJSON: await options() });
      const result = await signIn('passkey', { redirect: false, response: JSON.stringify(response) });
      if (!result || result.error) throw new Error('refused');
      router.replace(callbackUrl);
      router.refresh();
    } catch (caught) {
      setError(
        (caught as Error).message === 'refused'
          ? 'This passkey was not accepted. Try again.'
          : passkeyPromptError(caught),
      );
      setPending(false);
    }
  }

  return (
    <div className="mt-3">
      <Button type="button" variant="secondary" className="w-full" disabled={pending} onClick={() => void onClick()}>
        {pending ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
      </Button>
      {/* Rendered only when there is an error: the password form keeps the page's one standing alert region. */}
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
