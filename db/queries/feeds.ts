import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
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
    contentHash: string | null;
    title: string;
    link: string | null;
    summary?: string;
  },
): Promise<string | null> {
  const [row] = await db.insert(feedItems).values(params).onConflictDoNothing().returning({ id: feedItems.id });
  return row?.id ?? null;
}

/**
 * Items taken whose post (or queue post) was never made: a poller stopped in between, or it waits for a reason that
 * passes (only once its `retry_at` has come).
 */
export async function unfinishedFeedItems(db: Executor, params: { feedId: string; now: Date }) {
  return db
    .select()
    .from(feedItems)
    .where(
      and(
        eq(feedItems.feedId, params.feedId),
        isNull(feedItems.postId),
        isNull(feedItems.evergreenItemId),
        isNull(feedItems.error),
        or(isNull(feedItems.retryAt), lte(feedItems.retryAt, params.now)),
      ),
    )
    .orderBy(asc(feedItems.createdAt))
    .limit(50);
}

/** The first wait after a passing refusal, doubled after each one, up to `RETRY_MAX_MS`. */
const RETRY_FIRST_MS = 5 * 60_000;
const RETRY_MAX_MS = 6 * 3_600_000;

/**
 * An item refused for a reason that passes (an account disconnected, no free slot, the shortener down): it stays
 * unfinished, with the reason, and is tried again later — 5 minutes, then twice as long after each refusal, at most
 * 6 hours (polls come no sooner than the feed's interval).
 */
export async function deferFeedItem(db: Executor, params: { id: string; reason: string; now: Date }) {
  await db.execute(sql`
    update feed_items set waiting_reason = ${params.reason.slice(0, 500)}, retries = retries + 1,
      retry_at = ${at(params.now)} + least(${RETRY_FIRST_MS}::bigint * power(2, least(retries, 20))::bigint,
        ${RETRY_MAX_MS}::bigint) * interval '1 millisecond'
    where id = ${params.id} and post_id is null and evergreen_item_id is null`);
}

/**
 * "Retry" on the Feeds page: an item refused for good (its error) is unfinished again, tried at the feed's next poll.
 * Returns its feed, or null when it is not the workspace's or not refused.
 */
export async function retryFeedItem(db: Executor, params: { workspaceId: string; id: string }) {
  const [row] = await db
    .update(feedItems)
    .set({ error: null, waitingReason: null, retryAt: null, retries: 0 })
    .where(
      and(
        eq(feedItems.workspaceId, params.workspaceId),
        eq(feedItems.id, params.id),
        isNotNull(feedItems.error),
        isNull(feedItems.postId),
        isNull(feedItems.evergreenItemId),
      ),
    )
    .returning({ feedId: feedItems.feedId });
  return row?.feedId ?? null;
}

/**
 * Links an item to its post — in the post's own transaction (createPost's onCreated), so the two commit together. Only
 * an item without a post: false when it has one already (the caller rolls its post back).
 */
export async function setFeedItemPost(db: Executor, params: { id: string; postId: string }) {
  const linked = await db
    .update(feedItems)
    .set({ postId: params.postId, error: null, waitingReason: null, retryAt: null })
    .where(and(eq(feedItems.id, params.id), isNull(feedItems.postId)))
    .returning({ id: feedItems.id });
  return linked.length === 1;
}

/** An item done without a post of its own (added to an evergreen queue), or refused with its reason. */
export async function finishFeedItem(db: Executor, params: { id: string; evergreenItemId?: string; error?: string }) {
  await db
    .update(feedItems)
    .set({ evergreenItemId: params.evergreenItemId, error: params.error, waitingReason: null, retryAt: null })
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
