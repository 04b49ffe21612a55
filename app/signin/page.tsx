import Link from 'next/link';
import { redirect } from 'next/navigation';
import { PasskeySignIn } from '@/components/auth/passkey-sign-in';
import { SignInForm } from '@/components/auth/sign-in-form';
import { getDb } from '@/db/client';
import { setupOpen } from '@/db/queries/first-run';
import { DEFAULT_AFTER_SIGN_IN, safeCallbackPath } from '@/lib/auth/redirect';
import { getSession } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { passkeySecondFactorOptionsAction, passkeySignInOptionsAction } from './actions';

export const metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const env = getEnv();
  // Only a same-origin path is followed after sign-in (no open redirect): lib/auth/redirect.ts.
  const requested = Array.isArray(params.callbackUrl) ? params.callbackUrl[0] : params.callbackUrl;
  const callbackUrl = safeCallbackPath(requested, env.NEXTAUTH_URL ?? 'http://localhost') ?? DEFAULT_AFTER_SIGN_IN;
  if (await getSession()) redirect(callbackUrl);
  // A fresh install has no one to sign in: the first run creates the admin.
  if (await setupOpen(getDb())) redirect('/setup');
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-indigo-700">Semel</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">Sign in to your workspace.</p>
        {params.error && (
          <p role="alert" className="mb-4 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
            {params.error === 'AccessDenied'
              ? 'That account does not belong to a member here, or its email is not verified.'
              : 'Sign-in did not complete. Try again.'}
          </p>
        )}
        {params.signedOut && (
          <p role="status" className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            You are signed out.
          </p>
        )}
        <SignInForm
          callbackUrl={callbackUrl}
          github={Boolean(env.GITHUB_ID && env.GITHUB_SECRET)}
          oidc={env.oidc ? env.oidc.name : null}
          passkeyOptions={passkeySecondFactorOptionsAction}
        />
        <Link href="/forgot-password" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline">
          Forgot password?
        </Link>
        <PasskeySignIn callbackUrl={callbackUrl} options={passkeySignInOptionsAction} />
      </div>
    </main>
  );
}
