import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getUser, getWorkspace } from '@/lib/auth/session';

export const metadata = { title: 'No workspace' };
export const dynamic = 'force-dynamic';

/** Signed in, but a member of no workspace (removed, left, or its last one deleted). */
export default async function NoWorkspacePage() {
  const [user, context] = await Promise.all([getUser(), getWorkspace()]);
  if (!user) redirect('/signin');
  if (context) redirect('/queue');
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-lg font-semibold">No workspace</h1>
        <p className="mt-2 text-sm text-slate-600">
          {user.email} is not a member of any workspace. Ask an admin to invite you, then open the link in their email.
        </p>
        <Link href="/signout" className="mt-4 inline-block text-sm font-semibold text-indigo-700 hover:underline">
          Sign out
        </Link>
      </div>
    </main>
  );
}
