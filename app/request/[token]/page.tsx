import { notFound } from 'next/navigation';
import { RequestForm } from '@/components/requests/request-form';
import { getDb } from '@/db/client';
import { requestAddress } from '@/lib/auth/request-address';
import { checkRequestLink } from '@/lib/requests/links';
import { submitRequestAction } from './actions';

export const metadata = { title: 'Request a post', robots: { index: false } };
export const dynamic = 'force-dynamic';

/**
 * The client's request form: no sign-in, the token alone opens it. It shows nothing of the workspace but the
 * link's label; what the client sends lands as a draft for the team.
 */
export default async function RequestPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const check = await checkRequestLink(getDb(), token, requestAddress());
  if (!check.ok && check.status === 404) notFound();
  return (
    <main className="mx-auto max-w-2xl p-6">
      {check.ok ? (
        <>
          <h1 className="text-xl font-bold">Request a post</h1>
          <p className="mb-6 text-sm text-slate-600">
            {check.link.label} · the team receives it as a draft, edits it and schedules it.
          </p>
          <RequestForm token={token} action={submitRequestAction} />
        </>
      ) : (
        <section aria-labelledby="link-problem" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h1 id="link-problem" className="text-xl font-bold">
            {check.title}
          </h1>
          <p className="mt-2 text-slate-700">{check.detail}</p>
        </section>
      )}
    </main>
  );
}
