import type { Database } from '@/db/client';
import { addQueueItem, getQueue, postIdByKey } from '@/db/queries/evergreen';
import {
  claimDueFeeds,
  deferFeedItem,
  finishFeedItem,
  finishPoll,
  setFeedItemPost,
  takeFeedItem,
  unfinishedFeedItems,
} from '@/db/queries/feeds';
import { getTemplate } from '@/db/queries/library';
import { getTargetAccounts } from '@/db/queries/posts';
import type { Feed, FeedItem } from '@/db/schema';
import { checkQueueItem } from '@/lib/evergreen/items';
import { logger } from '@/lib/logging/logger';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { fillTemplate, templateVariables } from '@/lib/templates/variables';
import { fetchFeed, FEED_LIMITS } from './fetch';
import { contentHash, normaliseId } from './keys';
import { parseFeed, type ParsedEntry } from './parse';

export type FeedPollOptions = {
  now?: () => Date;
  batchSize: number;
  leaseMs: number;
  /** Entries read per poll (a feed's newest; a first poll of a long feed takes only these). */
  maxEntries: number;
  limits: { timeoutMs: number; maxBytes: number };
  /** Only these feeds, due or not ("Check now" on the Feeds page). */
  ids?: string[];
};

export const FEED_POLL_DEFAULTS: FeedPollOptions = {
  batchSize: 10,
  leaseMs: 60_000,
  maxEntries: 20,
  limits: FEED_LIMITS,
};

export type FeedPollSummary = { feeds: number; fetched: number; notModified: number; newItems: number; failed: number };

const DEFAULT_TEXT = '{{title}} {{link}}';
/** The post key of a feed item: posts_workspace_idempotency_key_uq makes its post one post. */
export const feedItemKey = (itemId: string) => `feed:${itemId}`;

/**
 * One pass of every due feed (docs/content.md#feeds), safe with any number of pollers at once: fetch it (conditional,
 * guarded, limited), parse the body, and take each entry once — by its GUID, its link or its content, each normalised
 * and unique per feed (an insert that any of the three refuses is an entry already taken) — then make its post: a
 * draft, a post at the accounts' next free slot, or a post of an evergreen queue. An entry taken by a poller that
 * stopped before its post is finished by the next poll, with the same key.
 */
export async function pollFeeds(db: Database, options: FeedPollOptions): Promise<FeedPollSummary> {
  const now = options.now ?? (() => new Date());
  const summary: FeedPollSummary = { feeds: 0, fetched: 0, notModified: 0, newItems: 0, failed: 0 };
  const claimed = await claimDueFeeds(db, {
    now: now(),
    limit: options.batchSize,
    leaseMs: options.leaseMs,
    ids: options.ids,
  });
  for (const feed of claimed) {
    summary.feeds++;
    const finish = (error: string | null, validators: { etag?: string | null; lastModified?: string | null } = {}) =>
      finishPoll(db, {
        id: feed.id,
        generation: feed.generation,
        now: now(),
        nextRunAt: new Date(now().getTime() + feed.pollMinutes * 60_000),
        error,
        ...validators,
      });
    try {
      for (const item of await unfinishedFeedItems(db, { feedId: feed.id, now: now() }))
        await makeItemPost(db, feed, { ...item, summary: item.summary ?? undefined }, now());
      const fetched = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.lastModified }, options.limits);
      if (fetched.kind !== 'ok') {
        if (fetched.kind === 'error') summary.failed++;
        else summary.notModified++;
        await finish(fetched.kind === 'error' ? fetched.reason : null);
        continue;
      }
      summary.fetched++;
      const parsed = parseFeed(fetched.body, fetched.contentType);
      if (!parsed.ok) {
        summary.failed++;
        await finish(parsed.reason);
        continue;
      }
      // The newest entries, taken oldest first so their posts keep the feed's order.
      for (const entry of parsed.entries.slice(0, options.maxEntries).reverse()) {
        const itemId = await takeFeedItem(db, {
          feedId: feed.id,
          workspaceId: feed.workspaceId,
          guidKey: normaliseId(entry.guid),
          linkKey: normaliseId(entry.link),
          contentHash: contentHash(entry.title, entry.summary),
          title: entry.title.slice(0, 500),
          link: entry.link,
          summary: entry.summary.slice(0, 5_000),
        });
        if (!itemId) continue;
        summary.newItems++;
        await makeItemPost(
          db,
          feed,
          { id: itemId, title: entry.title, link: entry.link, summary: entry.summary },
          now(),
        );
      }
      // An answer without validators keeps none: the next request is unconditional.
      await finish(null, { etag: fetched.etag, lastModified: fetched.lastModified });
    } catch (error) {
      summary.failed++;
      logger.error({ err: error, feedId: feed.id }, 'feed poll failed');
      await finish('The last poll failed; it will be tried again.');
    }
  }
  return summary;
}

type ItemContent = Pick<FeedItem, 'id' | 'title' | 'link'> & { summary?: string };

/**
 * The entry's post, made once under its key. An entry that cannot be posted keeps its reason (shown on the feed, with
 * "Retry"); one refused for a reason that passes (an account disconnected, no free slot, the shortener down) waits,
 * unfinished, and is tried again at a later poll.
 */
async function makeItemPost(db: Database, feed: Feed, item: ItemContent, now: Date) {
  const template = feed.templateId
    ? await getTemplate(db, { workspaceId: feed.workspaceId, id: feed.templateId })
    : null;
  const values = { title: item.title, link: item.link ?? '', summary: item.summary ?? '' };
  const fill = (text: string) => {
    // A template's own variables a feed does not give (its {{product}}) are left empty.
    const blanks = Object.fromEntries(templateVariables(text).map((v) => [v, ' ']));
    return fillTemplate(text, { ...blanks, ...values })
      .text.replace(/[ \t]{2,}/g, ' ')
      .trim();
  };
  const text = fill(template?.text ?? DEFAULT_TEXT);
  const firstComment = template?.firstComment ? fill(template.firstComment) : undefined;
  if (feed.mode === 'queue') {
    const queue = feed.evergreenQueueId
      ? await getQueue(db, { workspaceId: feed.workspaceId, queueId: feed.evergreenQueueId })
      : null;
    if (!queue) return finishFeedItem(db, { id: item.id, error: 'The feed has no evergreen queue' });
    // Checked as an item added by hand is: one its queue could never post is refused here, with the reason.
    const errors = await checkQueueItem(db, {
      workspaceId: feed.workspaceId,
      accountIds: queue.accountIds,
      text,
      variants: [],
    });
    if (Object.keys(errors).length > 0)
      return finishFeedItem(db, { id: item.id, error: Object.values(errors).flat().join(' ').slice(0, 500) });
    const added = await addQueueItem(db, {
      id: item.id,
      workspaceId: feed.workspaceId,
      queueId: queue.id,
      text,
      variants: [],
    });
    return finishFeedItem(
      db,
      added ? { id: item.id, evergreenItemId: added } : { id: item.id, error: 'The queue is gone' },
    );
  }
  // The feed's accounts, not this item: a disconnected one is reconnected, then the item is posted.
  const accounts = await getTargetAccounts(db, { workspaceId: feed.workspaceId, accountIds: feed.accountIds });
  const disconnected = accounts.filter((a) => a.disconnectedAt);
  if (accounts.length === new Set(feed.accountIds).size && disconnected.length > 0)
    return deferFeedItem(db, {
      id: item.id,
      reason: `${disconnected.map((a) => a.handle).join(', ')} disconnected: reconnect to post it`,
      now,
    });
  const request = createPostRequestSchema.safeParse({
    text,
    ...(firstComment ? { firstComment } : {}),
    accountIds: feed.accountIds,
    ...(feed.mode === 'draft' ? { status: 'draft' } : { slot: 'next' }),
  });
  if (!request.success) return finishFeedItem(db, { id: item.id, error: request.error.issues[0]!.message });
  const key = feedItemKey(item.id);
  const result = await createPost(db, request.data, {
    workspaceId: feed.workspaceId,
    source: 'api',
    idempotencyKey: key,
    actor: `system:feed:${feed.id}`,
    // The item and its post commit together: a poller stopped right after finds the item done, never made again.
    onCreated: async (tx, postId) => {
      if (!(await setFeedItemPost(tx, { id: item.id, postId })))
        throw new Error(`feed item ${item.id} has its post already`);
    },
  });
  // A replay: the post was made (and linked) by an earlier poll; an item from before the link was atomic gets it now.
  if (result.kind === 'ok')
    return result.replayed ? setFeedItemPost(db, { id: item.id, postId: result.postId }) : undefined;
  if (result.kind === 'in_flight') return; // another poller is making it: the next poll finds it done
  if (result.kind === 'key_reused') {
    const postId = await postIdByKey(db, { workspaceId: feed.workspaceId, key });
    return postId ? setFeedItemPost(db, { id: item.id, postId }) : undefined;
  }
  const reason =
    result.kind === 'invalid'
      ? Object.values(result.errors).flat().join(' ')
      : 'A post with the same text went out recently';
  if (result.kind === 'invalid' && result.transient) return deferFeedItem(db, { id: item.id, reason, now });
  return finishFeedItem(db, { id: item.id, error: reason.slice(0, 500) });
}

export type { ParsedEntry };
