import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { feedItems, feeds, type Feed } from '../schema';
import { claimLeasedRows } from './leased-rows';

// Feeds (docs/content.md#feeds). The guards are feed_items' three unique keys: an item is taken once per feed, by its
// GUID, its link or its content; the feed's lease only keeps two pollers from fetching it at once.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Due (or the named) unpaused feeds under no live lease (the shared claim, db/queries/leased-rows.ts). */
export async function claimDueFeeds(
  db: Executor,
  params: { now: Date; limit: number; leaseMs: number; ids?: string[] },
) {
  const date = (v: unknown) => (v ? new Date(v as string) : null);
  return (await claimLeasedRows(db, 'feeds', params)).map((r): Feed => ({
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    name: r.name as string,
    url: r.url as string,
    accountIds: r.account_ids as string[],
    templateId: (r.template_id as string | null) ?? null,
    mode: r.mode as Feed['mode'],
    evergreenQueueId: (r.evergreen_queue_id as string | null) ?? null,
    pollMinutes: r.poll_minutes as number,
    paused: r.paused as boolean,
    etag: (r.etag as string | null) ?? null,
    lastModified: (r.last_modified as string | null) ?? null,
    lastPolledAt: date(r.last_polled_at),
    lastError: (r.last_error as string | null) ?? null,
    nextRunAt: date(r.next_run_at)!,
    leaseExpiresAt: date(r.lease_expires_at),
    generation: r.generation as number,
    createdAt: date(r.created_at)!,
  }));
}

/**
 * Ends a poll (fenced by its generation): the validators for the next conditional request (kept when the answer had
 * none: a 304 repeats them), the error if any, and when to poll again.
 */
export async function finishPoll(
  db: Executor,
  params: {
    id: string;
    generation: number;
    now: Date;
    nextRunAt: Date;
    etag?: string | null;
    lastModified?: string | null;
    error: string | null;
  },
) {
  await db.execute(sql`
    update feeds set lease_expires_at = null, last_polled_at = ${at(params.now)}, next_run_at = ${at(params.nextRunAt)},
      last_error = ${params.error},
      etag = ${params.etag === undefined ? sql`etag` : sql`${params.etag}`},
      last_modified = ${params.lastModified === undefined ? sql`last_modified` : sql`${params.lastModified}`}
    where id = ${params.id} and generation = ${params.generation}`);
}

/**
 * Takes an item: inserted unless any of its keys (GUID, link, content) is already the feed's — one statement, so two
 * pollers racing take it once. Null: already taken.
 */
export async function takeFeedItem(
  db: Executor,
  params: {
    feedId: string;
    workspaceId: string;
    guidKey: string | null;
    linkKey: string | null;
    contentHash: string;
    title: string;
    link: string | null;
  },
): Promise<string | null> {
  const [row] = await db.insert(feedItems).values(params).onConflictDoNothing().returning({ id: feedItems.id });
  return row?.id ?? null;
}

/** Items taken whose post (or queue post) was never made: a poller stopped in between. */
export async function unfinishedFeedItems(db: Executor, params: { feedId: string }) {
  return db
    .select()
    .from(feedItems)
    .where(
      and(
        eq(feedItems.feedId, params.feedId),
        isNull(feedItems.postId),
        isNull(feedItems.evergreenItemId),
        isNull(feedItems.error),
      ),
    )
    .orderBy(asc(feedItems.createdAt))
    .limit(50);
}

export async function finishFeedItem(
  db: Executor,
  params: { id: string; postId?: string; evergreenItemId?: string; error?: string },
) {
  await db
    .update(feedItems)
    .set({ postId: params.postId, evergreenItemId: params.evergreenItemId, error: params.error })
    .where(eq(feedItems.id, params.id));
}

// The feeds page's reads and edits, scoped by workspace.

export async function listFeeds(db: Executor, params: { workspaceId: string }) {
  return db.select().from(feeds).where(eq(feeds.workspaceId, params.workspaceId)).orderBy(asc(feeds.name));
}

export async function listRecentFeedItems(db: Executor, params: { workspaceId: string; feedIds: string[] }) {
  if (params.feedIds.length === 0) return [];
  return db
    .select()
    .from(feedItems)
    .where(and(eq(feedItems.workspaceId, params.workspaceId), inArray(feedItems.feedId, params.feedIds)))
    .orderBy(desc(feedItems.createdAt))
    .limit(100);
}

/** A new feed, or null when the workspace already has this URL (`feeds_workspace_url_uq`). */
export async function createFeed(
  db: Executor,
  params: Pick<
    Feed,
    'workspaceId' | 'name' | 'url' | 'accountIds' | 'templateId' | 'mode' | 'evergreenQueueId' | 'pollMinutes'
  >,
) {
  const [row] = await db.insert(feeds).values(params).onConflictDoNothing().returning();
  return row ?? null;
}

export async function getFeed(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .select()
    .from(feeds)
    .where(and(eq(feeds.workspaceId, params.workspaceId), eq(feeds.id, params.id)));
  return row ?? null;
}

export async function setFeedPaused(db: Executor, params: { workspaceId: string; id: string; paused: boolean }) {
  await db
    .update(feeds)
    .set({ paused: params.paused })
    .where(and(eq(feeds.workspaceId, params.workspaceId), eq(feeds.id, params.id)));
}
