'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { ActionState } from '@/lib/auth/action';

/** Revokes every session of this user (server), then clears this browser's cookie. */
export function SignOutEverywhere({ action }: { action: () => Promise<ActionState> }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  return (
    <div>
      <Button
        variant="secondary"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          const result = await action();
          if (!result.ok) {
            setError(result.message);
            setPending(false);
            return;
          }
          await signOut({ callbackUrl: '/signin?signedOut=1' });
        }}
      >
        {pending ? 'Signing out everywhere…' : 'Sign out everywhere'}
      </Button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
