import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { getSession } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';

export const metadata = { title: 'Sign in' };

/** Only same-site paths are followed after sign-in (no open redirect). */
function safeCallback(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return v && v.startsWith('/') && !v.startsWith('//') ? v : '/queue';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  if (await getSession()) redirect(callbackUrl);
  const env = getEnv();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-indigo-700">Postonce</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">Sign in to your workspace.</p>
        {params.signedOut && <p role="status" className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">You are signed out.</p>}
        <SignInForm callbackUrl={callbackUrl} github={Boolean(env.GITHUB_ID && env.GITHUB_SECRET)} />
      </div>
    </main>
  );
}
