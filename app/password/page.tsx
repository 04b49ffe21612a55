import Link from 'next/link';
import { SetPasswordForm } from '@/components/auth/password-forms';
import { getDb } from '@/db/client';
import { passwordTokenUsable } from '@/db/queries/password-tokens';
import { hashOneTimeToken } from '@/lib/auth/first-run';
import { setPasswordAction } from './actions';

export const metadata = { title: 'Choose a password' };
export const dynamic = 'force-dynamic';

/** A one-time password link (reset, or the admin's link from `npm run setup`). */
export default async function PasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === 'string' ? raw : '';
  const purpose = token ? await passwordTokenUsable(getDb(), { tokenHash: hashOneTimeToken(token) }) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-indigo-700">
          {purpose === 'set' ? 'Set your password' : 'Choose a new password'}
        </h1>
        {purpose ? (
          <SetPasswordForm token={token} action={setPasswordAction} />
        ) : (
          <p role="alert" className="mt-4 text-sm text-slate-700">
            This link has been used or has expired.{' '}
            <Link href="/forgot-password" className="font-medium text-indigo-700 underline">
              Ask for a new one
            </Link>
            .
          </p>
        )}
      </div>
    </main>
  );
}
