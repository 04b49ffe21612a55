import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { ApprovalCard } from '@/components/approvals/approval-card';
import { PostMetrics } from '@/components/analytics/post-metrics';
import { CreateApprovalLink } from '@/components/approvals/create-link';
import { ScheduleDraft } from '@/components/drafts/schedule-draft';
import { DeliveryTimelines } from '@/components/posts/delivery-timeline';
import { EditPostForm } from '@/components/posts/edit-post-form';
import { StatusBadge } from '@/components/posts/status-badge';
import { CancelButton } from '@/components/queue/cancel-button';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { ShortLinkTable } from '@/components/links/short-link-table';
import { getDb } from '@/db/client';
import { listPostShortLinks } from '@/db/queries/links';
import { listAccounts } from '@/db/queries/accounts';
import { getRequireAltText } from '@/db/queries/media';
import { listDecisions } from '@/db/queries/approvals';
import { listRequestsForPosts } from '@/db/queries/requests';
import { readPostMetrics } from '@/lib/analytics/post-history';
import { readApprovalPost } from '@/lib/approvals/view';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { queryKeys } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readPostDetail } from '@/lib/reads/post-detail';
import { scheduleDraftAction } from '../../drafts/actions';
import { cancelPostAction } from '../../queue/actions';
import { createApprovalLinkAction, decidePostAction } from '../../approvals/actions';
import { editPostAction } from './actions';

export const metadata = { title: 'Post' };

const TITLES = { post: 'Post', reply: 'Reply', dm: 'Direct message', thread: 'Thread' } as const;

export default async function PostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { workspace, role } = await requirePageWorkspace();
  // Another workspace's post is a 404, like a missing one (I6).
  const post = await readPostDetail(getDb(), { workspaceId: workspace.id, postId: id });
  if (!post) notFound();
  const queryClient = getServerQueryClient();
  queryClient.setQueryData(queryKeys.post(id), post);
  const accounts = can(role, 'edit') ? await listAccounts(getDb(), { workspaceId: workspace.id }) : [];
  const requireAltText = post.parts ? await getRequireAltText(getDb(), { workspaceId: workspace.id }) : true;
  const open = (s: string) => s === 'scheduled' || s === 'draft' || s === 'awaiting_approval';
  const isDraft = post.deliveries.some((d) => d.status === 'draft');
  const awaiting = post.deliveries.some((d) => d.status === 'awaiting_approval');
  const links = await listPostShortLinks(getDb(), { workspaceId: workspace.id, postId: id });
  const decisions = await listDecisions(getDb(), { workspaceId: workspace.id, postId: id });
  const request = (await listRequestsForPosts(getDb(), { workspaceId: workspace.id, postIds: [id] })).get(id);
  // Shown while it waits, and after a decision (the card keeps its answer when the page refreshes).
  const approval =
    awaiting || decisions.length > 0
      ? await readApprovalPost(getDb(), { workspaceId: workspace.id, postId: id })
      : null;
  const metrics = await readPostMetrics(getDb(), {
    workspaceId: workspace.id,
    postId: id,
    delaysMs: getEnv().ANALYTICS_READ_DELAYS_MS,
  });
  const editable =
    can(role, 'edit') &&
    post.deliveries.some((d) => open(d.status)) &&
    post.deliveries.every((d) => open(d.status) || d.status === 'canceled');
  return (
    <>
      <PageHeader
        title={TITLES[post.kind]}
        description={
          <>
            {isDraft ? 'Draft, planned for' : awaiting ? 'Awaiting approval, planned for' : 'Scheduled for'}{' '}
            <LocalTime iso={post.scheduledAt} /> ·{' '}
            {request ? 'from a client request link' : `created from the ${post.source === 'api' ? 'API' : 'composer'}`}
          </>
        }
        actions={
          <span className="flex items-center gap-3">
            {/* A thread is canceled only while it has not started on an account (its first part unclaimed). */}
            {can(role, 'cancel') && post.deliveries.some((d) => open(d.status) && d.part === 0) && (
              <CancelButton postId={post.id} label={isDraft ? 'Discard' : 'Cancel'} action={cancelPostAction} />
            )}
            <StatusBadge status={post.status} />
          </span>
        }
      />
      {request && (
        <section
          aria-label="Client request"
          className="mb-6 rounded-lg bg-indigo-50 p-4 text-sm text-indigo-900 ring-1 ring-indigo-200"
        >
          <p className="font-semibold">Requested by {request.requesterName}</p>
          {request.note && <p className="mt-1 whitespace-pre-wrap">Note: {request.note}</p>}
        </section>
      )}
      {post.parts ? (
        <p className="mb-6 text-sm text-slate-600">
          A thread of {post.parts.length} parts, published in order: each part replies to the one before it, once the
          one before it is on the platform.
        </p>
      ) : (
        <article className="mb-6 whitespace-pre-wrap rounded-lg bg-white p-6 text-slate-900 shadow-sm ring-1 ring-slate-200">
          {post.text}
        </article>
      )}
      {isDraft && can(role, 'edit') && (
        <div className="mb-6 flex flex-wrap items-center gap-3 rounded-lg border border-dashed border-slate-400 bg-white p-4 text-sm">
          <p className="text-slate-700">A draft: nothing is published until it is scheduled.</p>
          <ScheduleDraft postId={post.id} plannedAt={post.scheduledAt} action={scheduleDraftAction} />
        </div>
      )}
      {(approval || decisions.length > 0) && (
        <section aria-labelledby="approval" className="mb-6 space-y-3">
          <h2 id="approval" className="text-base font-semibold">
            Approval
          </h2>
          {approval && (
            <ApprovalCard
              post={approval}
              via={can(role, 'approve') ? { kind: 'action', action: decidePostAction } : null}
            />
          )}
          {awaiting && can(role, 'approve') && (
            <CreateApprovalLink action={createApprovalLinkAction} postId={post.id} label="Create client link" />
          )}
          {decisions.length > 0 && (
            <ul aria-label="Decisions" className="space-y-1 text-sm text-slate-700">
              {decisions.map((d) => (
                <li key={d.id}>
                  Revision {d.revision}: {d.decision === 'approved' ? 'approved' : 'changes requested'} by{' '}
                  {d.deciderName} <LocalTime iso={d.decidedAt.toISOString()} />
                  {d.comment && <> — “{d.comment}”</>}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {Object.keys(post.variants).length > 0 && (
        <section aria-label="Own texts" className="mb-6 space-y-2">
          {post.deliveries
            .filter((d) => d.part === 0 && post.variants[d.accountId])
            .map((d) => (
              <div key={d.id} className="rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200">
                {post.variants[d.accountId]!.text !== undefined && (
                  <>
                    <p className="mb-1 font-semibold text-slate-700">Own text for {d.handle}</p>
                    <p className="whitespace-pre-wrap text-slate-900">{post.variants[d.accountId]!.text}</p>
                  </>
                )}
                {post.variants[d.accountId]!.firstComment !== undefined && (
                  <>
                    <p className="mt-2 mb-1 font-semibold text-slate-700">Own first comment for {d.handle}</p>
                    <p className="whitespace-pre-wrap text-slate-900">{post.variants[d.accountId]!.firstComment}</p>
                  </>
                )}
              </div>
            ))}
        </section>
      )}
      {links.length > 0 && (
        <section aria-labelledby="post-links" className="mb-6 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="post-links" className="mb-2 text-base font-semibold">
            Links and clicks
          </h2>
          <ShortLinkTable
            links={links.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() }))}
            caption="This post’s short links and their clicks"
          />
        </section>
      )}
      {post.inReplyTo && <p className="mb-4 text-sm text-slate-600">In reply to {post.inReplyTo}</p>}
      {post.recipient && <p className="mb-4 text-sm text-slate-600">To {post.recipient}</p>}
      <h2 className="mb-3 text-base font-semibold">{post.parts ? 'Parts and their deliveries' : 'Deliveries'}</h2>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <DeliveryTimelines postId={post.id} />
      </HydrationBoundary>
      <PostMetrics deliveries={metrics} parts={!!post.parts} />
      {editable && (
        <div id="edit" className="mt-6 scroll-mt-4">
          <EditPostForm
            postId={post.id}
            text={post.text}
            parts={post.parts?.map((p) => ({ text: p.text, media: p.media }))}
            requireAltText={requireAltText}
            action={editPostAction}
            accounts={accounts.map((a) => ({ id: a.id, handle: a.handle, provider: a.provider }))}
            targets={[...new Set(post.deliveries.filter((d) => open(d.status)).map((d) => d.accountId))]}
          />
        </div>
      )}
      <p className="mt-4 text-xs text-slate-500">
        Idempotency key: <code>{post.idempotencyKey}</code>
      </p>
    </>
  );
}
