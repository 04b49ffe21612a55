'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useRef, useState } from 'react';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = { token: string; email: string; action: FormAction };

/** Sign up from an invitation: name and password; then signs in with them (the email is the invited one). */
export function AcceptInvitationForm({ token, email, action }: Props) {
  const router = useRouter();
  const [state, onSubmit, pending] = useKeptFormAction(action);
  const password = useRef('');
  const [signInError, setSignInError] = useState<string | null>(null);
  useEffect(() => {
    if (!state?.ok) return;
    void signIn('credentials', { redirect: false, email, password: password.current }).then((result) => {
      if (!result || result.error) setSignInError('Your account is ready, but signing in failed: sign in again.');
      else {
        router.replace('/queue');
        router.refresh();
      }
    });
  }, [state, email, router]);
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      <TextField id="invite-email" label="Email" value={email} readOnly disabled />
      <TextField
        id="invite-name"
        name="name"
        label="Your name"
        autoComplete="name"
        required
        error={state?.errors?.name?.[0]}
      />
      <TextField
        id="invite-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        description="At least 12 characters."
        onChange={(e) => (password.current = e.target.value)}
        error={state?.errors?.password?.[0]}
      />
      <SubmitButton pending={pending || Boolean(state?.ok)} pendingLabel="Creating account…" className="w-full">
        Create account and join
      </SubmitButton>
      <FormStatus state={state} />
      {signInError && (
        <p role="alert" className="text-sm text-rose-700">
          {signInError}
        </p>
      )}
    </form>
  );
}

/** The signed-in invitee joins with one button (the action redirects to the queue). */
export function JoinWorkspaceForm({ token, action }: { token: string; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="token" value={token} />
      <SubmitButton pending={pending} pendingLabel="Joining…" className="w-full">
        Join workspace
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

/**
 * Accept through single sign-on: the action keeps the link for the OIDC callback (a sealed httpOnly cookie), then the
 * issuer's round trip starts; the callback accepts when the issuer's verified email is the invited one.
 */
export function ContinueWithSsoForm({ token, name, action }: { token: string; name: string; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  useEffect(() => {
    if (state?.ok) void signIn('oidc', { callbackUrl: '/queue' });
  }, [state]);
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="token" value={token} />
      <SubmitButton
        variant="secondary"
        pending={pending || Boolean(state?.ok)}
        pendingLabel={`Continuing to ${name}…`}
        className="w-full"
      >
        Continue with {name}
      </SubmitButton>
      {!state?.ok && <FormStatus state={state} />}
    </form>
  );
}
