import { notFound } from 'next/navigation';
import { SetupForm } from '@/components/auth/setup-form';
import { getDb } from '@/db/client';
import { setupOpen } from '@/db/queries/first-run';
import { setupAction } from './actions';

export const metadata = { title: 'Set up Semel' };
export const dynamic = 'force-dynamic';

/** The first run: open only while there is no user and no installation; a 404 afterwards. */
export default async function SetupPage() {
  if (!(await setupOpen(getDb()))) notFound();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <div className="w-full max-w-lg rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-indigo-700">Set up Semel</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">
          Create the first admin and workspace. The setup token is in the server log (or run{' '}
          <code className="rounded bg-slate-100 px-1">npm run setup</code>).
        </p>
        <SetupForm action={setupAction} zones={[...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])]} />
      </div>
    </main>
  );
}
