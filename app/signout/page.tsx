import { SignOutButton } from '@/components/shell/sign-out-button';

export const metadata = { title: 'Sign out' };

export default function SignOutPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="mb-4 text-lg font-semibold">Sign out of Semel?</h1>
        <SignOutButton />
      </div>
    </main>
  );
}
