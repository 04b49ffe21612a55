import Link from 'next/link';
import { ForgotPasswordForm } from '@/components/auth/password-forms';
import { forgotPasswordAction } from '@/app/password/actions';

export const metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold tracking-tight text-indigo-700">Forgot password</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">We email you a link to choose a new password.</p>
        <ForgotPasswordForm action={forgotPasswordAction} />
        <Link href="/signin" className="mt-6 inline-block text-sm font-medium text-indigo-700 underline">
          Back to sign in
        </Link>
      </div>
    </main>
  );
}
