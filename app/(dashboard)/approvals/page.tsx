import Link from 'next/link';
import { ApprovalCard } from '@/components/approvals/approval-card';
import { CreateApprovalLink } from '@/components/approvals/create-link';
import { RevokeApprovalLink } from '@/components/approvals/revoke-link';
import { EmptyState } from '@/components/ui/empty-state';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import {
  getWorkspaceApproval,
  listActiveApprovalLinks,
  listChangesRequested,
  listPendingApprovals,
} from '@/db/queries/approvals';
import { readApprovalPosts } from '@/lib/approvals/view';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { createApprovalLinkAction, decidePostAction, revokeApprovalLinkAction } from './actions';

export const metadata = { title: 'Approvals' };

/** Posts waiting for a decision on their current revision; admins approve here or send the client a link. */
export default async function ApprovalsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const db = getDb();
  const admin = can(role, 'approve');
  const [settings, pending, changes, links] = await Promise.all([
    getWorkspaceApproval(db, { workspaceId: workspace.id }),
    // What was decided in the last quarter hour stays listed (with its decision), so an answer is not whisked away.
    listPendingApprovals(db, { workspaceId: workspace.id, recentMinutes: 15 }),
    listChangesRequested(db, { workspaceId: workspace.id }),
    admin ? listActiveApprovalLinks(db, { workspaceId: workspace.id }) : Promise.resolve([]),
  ]);
  const views = await readApprovalPosts(db, { workspaceId: workspace.id, postIds: pending.map((p) => p.id) });
  return (
    <>
      <PageHeader
        title="Approvals"
        description={
          settings?.approvalRequired
            ? 'New and edited posts wait here until an admin or the client approves them.'
            : 'Posts do not need approval in this workspace (Settings → General).'
        }
        actions={
          admin && views.length > 0 ? (
            <CreateApprovalLink
              action={createApprovalLinkAction}
              label="Client link for everything pending this week"
            />
          ) : undefined
        }
      />
      {views.length === 0 ? (
        <EmptyState title="Nothing waiting for approval">Posts waiting for a decision show up here.</EmptyState>
      ) : (
        <div className="space-y-6">
          {views.map((post) => (
            <div key={post.id}>
              <ApprovalCard post={post} via={admin ? { kind: 'action', action: decidePostAction } : null} />
              <Link href={`/posts/${post.id}`} className="mt-1 inline-block text-sm text-indigo-700 hover:underline">
                Open post →
              </Link>
            </div>
          ))}
        </div>
      )}
      {changes.length > 0 && (
        <section aria-labelledby="changes" className="mt-8">
          <h2 id="changes" className="mb-2 text-base font-semibold">
            Changes requested
          </h2>
          <ul className="divide-y divide-slate-200 rounded-md bg-white ring-1 ring-slate-200">
            {changes.map((c) => (
              <li key={c.id} className="p-3 text-sm">
                <Link href={`/posts/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                  {c.text.slice(0, 80)}
                </Link>{' '}
                — {c.deciderName}: “{c.comment}” (<LocalTime iso={c.decidedAt.toISOString()} />)
              </li>
            ))}
          </ul>
        </section>
      )}
      {admin && links.length > 0 && (
        <section aria-labelledby="links" className="mt-8">
          <h2 id="links" className="mb-2 text-base font-semibold">
            Client links
          </h2>
          <ul aria-label="Client links" className="divide-y divide-slate-200 rounded-md bg-white ring-1 ring-slate-200">
            {links.map((l) => (
              <li key={l.id} className="flex items-center justify-between gap-3 p-3 text-sm">
                <span>
                  {l.label} · {l.postCount} post{l.postCount === 1 ? '' : 's'} · until{' '}
                  <LocalTime iso={l.expiresAt.toISOString()} />
                </span>
                <RevokeApprovalLink action={revokeApprovalLinkAction} linkId={l.id} label={l.label} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
