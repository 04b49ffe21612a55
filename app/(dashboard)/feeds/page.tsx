import { FeedCard, NewFeedForm } from '@/components/feeds/feeds';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { listQueues } from '@/db/queries/evergreen';
import { listFeeds, listRecentFeedItems } from '@/db/queries/feeds';
import { listTemplates } from '@/db/queries/library';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { checkFeedAction, createFeedAction, pauseFeedAction, retryFeedItemAction } from './actions';

export const metadata = { title: 'Feeds' };

const MODE_LABELS = {
  draft: 'Drafts to review',
  queue: 'Into an evergreen queue',
  publish: 'Posts at the next free slot',
};

export default async function FeedsPage() {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const db = getDb();
  const [feeds, accounts, templates, queues] = await Promise.all([
    listFeeds(db, { workspaceId: workspace.id }),
    listAccounts(db, { workspaceId: workspace.id }),
    listTemplates(db, { workspaceId: workspace.id }),
    listQueues(db, { workspaceId: workspace.id }),
  ]);
  const items = await listRecentFeedItems(db, { workspaceId: workspace.id, feedIds: feeds.map((f) => f.id) });
  const handle = new Map(accounts.map((a) => [a.id, a.handle]));
  return (
    <>
      <PageHeader
        title="Feeds"
        description="RSS, Atom and JSON feeds into your posts: each item once, however the feed changes."
      />
      <div className="space-y-6">
        {feeds.map((f) => (
          <FeedCard
            key={f.id}
            feed={{
              id: f.id,
              name: f.name,
              url: f.url,
              paused: f.paused,
              mode: MODE_LABELS[f.mode],
              targets:
                f.mode === 'queue'
                  ? (queues.find((q) => q.id === f.evergreenQueueId)?.name ?? 'a removed queue')
                  : f.accountIds.map((id) => handle.get(id) ?? 'an account removed').join(', '),
              template: templates.find((t) => t.id === f.templateId)?.name ?? null,
              pollMinutes: f.pollMinutes,
              lastPolledAt: f.lastPolledAt?.toISOString() ?? null,
              lastError: f.lastError,
            }}
            items={items
              .filter((i) => i.feedId === f.id)
              .slice(0, 10)
              .map((i) => ({
                id: i.id,
                title: i.title,
                link: i.link,
                postId: i.postId,
                queued: Boolean(i.evergreenItemId),
                error: i.error,
                waiting: i.waitingReason,
                retryAt: i.retryAt?.toISOString() ?? null,
                createdAt: i.createdAt.toISOString(),
              }))}
            check={checkFeedAction}
            pause={pauseFeedAction}
            retry={retryFeedItemAction}
          />
        ))}
        <NewFeedForm
          action={createFeedAction}
          accounts={accounts.filter((a) => !a.disconnectedAt).map((a) => ({ id: a.id, handle: a.handle }))}
          templates={templates.map((t) => ({ id: t.id, name: t.name }))}
          queues={queues.map((q) => ({ id: q.id, name: q.name }))}
        />
      </div>
    </>
  );
}
