import { redirect } from 'next/navigation';
import { ConfirmEmailChange } from '@/components/auth/confirm-email-change';
import { getUser } from '@/lib/auth/session';
import { confirmEmailChangeAction } from './actions';

export const metadata = { title: 'Confirm your new email' };

/** The link from the email: shows a button (the change is a POST), for the signed-in user who asked for it. */
export default async function ConfirmEmailChangePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await getUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(`/email-change/${token}`)}`);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-4 rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-bold tracking-tight text-slate-900">Confirm your new email</h1>
        <p className="text-sm text-slate-700">
          Signed in as {user.email}. Confirm to make the address this link was sent to your sign-in email; your other
          sessions are signed out.
        </p>
        <ConfirmEmailChange token={token} action={confirmEmailChangeAction} />
      </div>
    </main>
  );
}
