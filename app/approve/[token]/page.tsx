import { notFound } from 'next/navigation';
import { ApprovalCard } from '@/components/approvals/approval-card';
import { LocalTime } from '@/components/ui/local-time';
import { getDb } from '@/db/client';
import { checkApprovalLink } from '@/lib/approvals/links';
import { requestAddress } from '@/lib/auth/request-address';
import { readApprovalPosts } from '@/lib/approvals/view';

export const metadata = { title: 'Approve posts', robots: { index: false } };
export const dynamic = 'force-dynamic';

/**
 * The client's approval page: no sign-in, the token alone opens it. It shows only the posts the link lists, as
 * each network will show them, in the viewer's own time zone — nothing else of the workspace.
 */
export default async function ApprovePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const db = getDb();
  const check = await checkApprovalLink(db, token, requestAddress());
  if (!check.ok && check.status === 404) notFound();
  return (
    <main className="mx-auto max-w-4xl p-6">
      {check.ok ? (
        <>
          <h1 className="text-xl font-bold">Posts waiting for your approval</h1>
          <p className="mb-6 text-sm text-slate-600">
            {check.link.label} · this link works until <LocalTime iso={check.link.expiresAt.toISOString()} />. Times are
            shown in your time zone.
          </p>
          <div className="space-y-6">
            {(
              await readApprovalPosts(db, {
                workspaceId: check.link.workspaceId,
                postIds: check.link.postIds,
                audience: 'client',
              })
            ).map((post) => (
              <ApprovalCard key={post.id} post={post} via={{ kind: 'link', token }} />
            ))}
          </div>
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
