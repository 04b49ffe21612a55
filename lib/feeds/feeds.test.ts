process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';

import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { addQueueItem, createQueue } from '@/db/queries/evergreen';
import { createFeed, retryFeedItem, takeFeedItem } from '@/db/queries/feeds';
import { createTemplate } from '@/db/queries/library';
import { putPostingSchedule } from '@/db/queries/slots';
import { deliveries, evergreenItems, feedItems, feeds, posts, socialAccounts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { rss, startFeedServer, type FeedEntry } from '@/testing/feed-server';
import { holdLock, untilBlocked } from '@/testing/race';
import { FEED_POLL_DEFAULTS, feedItemKey, pollFeeds } from './poll';

// Feeds into the queue (docs/content.md#feeds) against a real HTTP server on loopback, through the outbound guard:
// each entry taken once — by GUID, link and content, each normalised and unique per feed — however the feed re-orders,
// re-publishes or tweaks its GUIDs; conditional requests (ETag, Last-Modified); size and time limits; racing pollers.

const { db } = await createTestDatabase({ max: 20 });
const server = await startFeedServer();

let workspaceId: string;
let accountId: string;
let feedId: string;
beforeEach(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  accountId = (await makeAccount(db, workspaceId, { provider: 'mastodon', handle: '@blog@social.test' })).id;
  feedId = (await createFeed(db, {
    workspaceId,
    name: 'Blog',
    url: server.url,
    accountIds: [accountId],
    templateId: null,
    mode: 'draft',
    evergreenQueueId: null,
    pollMinutes: 60,
  }))!.id;
  server.state.bytes = 0;
  server.state.hangMs = 0;
  server.state.requests = [];
});

const poll = (overrides: Partial<typeof FEED_POLL_DEFAULTS> = {}) =>
  pollFeeds(db, { ...FEED_POLL_DEFAULTS, ids: [feedId], ...overrides });
const feedPosts = async () =>
  db
    .select({ id: posts.id, text: posts.text, status: deliveries.status })
    .from(posts)
    .innerJoin(deliveries, eq(deliveries.postId, posts.id))
    .where(and(eq(posts.workspaceId, workspaceId), sql`${posts.idempotencyKey} like 'feed:%'`))
    .orderBy(asc(posts.createdAt));
const serve = (items: FeedEntry[]) => {
  server.state.body = rss(items);
};
const makeTemplate = async (text: string) =>
  (await createTemplate(db, {
    workspaceId,
    name: `feed ${randomUUID().slice(0, 4)}`,
    text,
    firstComment: null,
    accountIds: [],
    timeOfDay: null,
    mediaIds: [],
  }))!;
const feedRow = async () => (await db.select().from(feeds).where(eq(feeds.id, feedId)))[0]!;

const A = {
  guid: 'https://blog.example.com/?p=1',
  link: 'https://blog.example.com/hello',
  title: 'Hello world',
  summary: 'First post.',
};
const B = {
  guid: 'https://blog.example.com/?p=2',
  link: 'https://blog.example.com/spring',
  title: 'Spring is here',
  summary: 'Flowers.',
};
const C = {
  guid: 'tag:blog.example.com,2026:3',
  link: 'https://blog.example.com/lamp',
  title: 'A new lamp',
  summary: 'Bright.',
};

describe('feeds — each item once', () => {
  it('a feed that re-orders, re-publishes and tweaks its GUIDs creates each item once (as a draft)', async () => {
    serve([C, B, A]);
    expect(await poll()).toMatchObject({ fetched: 1, newItems: 3 });
    expect((await feedPosts()).map((p) => [p.text, p.status])).toEqual([
      ['Hello world https://blog.example.com/hello', 'draft'],
      ['Spring is here https://blog.example.com/spring', 'draft'],
      ['A new lamp https://blog.example.com/lamp', 'draft'],
    ]);
    // Re-ordered.
    serve([A, C, B]);
    expect(await poll()).toMatchObject({ fetched: 1, newItems: 0 });
    // Re-published: new dates; one under a new GUID (its link the same), one under a new link (its GUID the same).
    serve([
      { ...A, published: 'Tue, 08 Dec 2026 10:00:00 GMT', guid: 'https://blog.example.com/?p=1001' },
      { ...B, published: 'Tue, 08 Dec 2026 10:00:00 GMT', link: 'https://blog.example.com/2026/spring' },
      C,
    ]);
    expect(await poll()).toMatchObject({ newItems: 0 });
    // GUIDs and links tweaked: scheme, www., trailing slash, case, tracking parameters, a fragment.
    serve([
      { ...A, guid: 'http://www.Blog.example.com/?p=1', link: 'https://blog.example.com/hello/?utm_source=rss#top' },
      { ...B, guid: 'HTTPS://blog.example.com/?p=2', link: 'http://blog.example.com/spring/' },
      { ...C, guid: ' tag:blog.example.com,2026:3 ' },
    ]);
    expect(await poll()).toMatchObject({ newItems: 0 });
    // The same words under a new GUID and a new link: the content says it is the same item.
    serve([
      {
        guid: 'x-99',
        link: 'https://mirror.example.net/hello-world',
        title: 'Hello  world',
        summary: '<p>First post.</p>',
      },
    ]);
    expect(await poll()).toMatchObject({ newItems: 0 });
    // A new item is one new draft.
    serve([
      { guid: 'https://blog.example.com/?p=4', link: 'https://blog.example.com/news', title: 'News', summary: 'n' },
      A,
    ]);
    expect(await poll()).toMatchObject({ newItems: 1 });
    expect(await feedPosts()).toHaveLength(4);
    expect(await db.select().from(feedItems).where(eq(feedItems.feedId, feedId))).toHaveLength(4);
  });

  it('different items stay different: no words is no content key; fragments, path case and GUID case count', async () => {
    serve([
      // A feed of links only (no title, no summary): two items, not one.
      { guid: 'https://blog.example.com/?p=10', link: 'https://blog.example.com/ten', title: '', summary: '' },
      { guid: 'https://blog.example.com/?p=11', link: 'https://blog.example.com/eleven', title: '', summary: '' },
      // One page, its items by anchor (no GUID).
      { guid: '', link: 'https://blog.example.com/news#item-1', title: 'First news', summary: 'a' },
      { guid: '', link: 'https://blog.example.com/news#item-2', title: 'Second news', summary: 'b' },
      // Case-sensitive paths (YouTube ids, short links) and opaque GUIDs are another item when their case differs.
      { guid: 'yt:video:AbC', link: 'https://videos.example.com/watch/AbC', title: 'Video one', summary: 'x' },
      { guid: 'yt:video:aBc', link: 'https://videos.example.com/watch/aBc', title: 'Video two', summary: 'y' },
    ]);
    expect(await poll()).toMatchObject({ newItems: 6 });
    const keys = await db
      .select({ guid: feedItems.guidKey, link: feedItems.linkKey, hash: feedItems.contentHash })
      .from(feedItems)
      .where(eq(feedItems.feedId, feedId));
    expect(keys.filter((k) => k.hash === null)).toHaveLength(2);
    expect(keys.map((k) => k.guid).filter((g) => g?.startsWith('yt:'))).toEqual(
      expect.arrayContaining(['yt:video:AbC', 'yt:video:aBc']),
    );
    expect(keys.map((k) => k.link)).toEqual(
      expect.arrayContaining(['blog.example.com/news#item-1', 'videos.example.com/watch/AbC']),
    );
  });

  it('I3 — ten pollers racing on one feed (no lease to keep them apart) take each item once', async () => {
    serve([A, B, C]);
    // A lease of 0 ms: every poller claims the feed at once and fetches it; only the item constraints hold them.
    await Promise.all(Array.from({ length: 10 }, () => poll({ leaseMs: 0 })));
    expect(server.state.requests.length).toBeGreaterThan(1);
    expect(await feedPosts()).toHaveLength(3);
    const taken = await Promise.all(
      Array.from({ length: 20 }, () =>
        takeFeedItem(db, {
          feedId,
          workspaceId,
          guidKey: 'g-race',
          linkKey: null,
          contentHash: 'h-race',
          title: 't',
          link: null,
        }),
      ),
    );
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('an item taken by a poller that stopped before its post gets its post, once, from the next poll', async () => {
    serve([A]);
    // A poller took the item and stopped (its row, no post).
    await db.insert(feedItems).values({
      feedId,
      workspaceId,
      guidKey: 'blog.example.com?p=1',
      linkKey: 'blog.example.com/hello',
      contentHash: 'stopped-before-its-post',
      title: 'Hello world',
      link: A.link,
    });
    await poll();
    await poll();
    expect((await feedPosts()).map((p) => p.text)).toEqual(['Hello world https://blog.example.com/hello']);
  });

  it('I3 — a poller that stops once the post is made, its key pruned since: the item and its post commit together', async () => {
    serve([]);
    const [item] = await db
      .insert(feedItems)
      .values({
        feedId,
        workspaceId,
        guidKey: 'g-stop',
        linkKey: null,
        contentHash: 'h-stop',
        title: 'Hello world',
        link: A.link,
      })
      .returning({ id: feedItems.id });
    // The item's row is held, so the link from the item to its post waits right there.
    const release = await holdLock(db, sql`select 1 from feed_items where id = ${item!.id} for update`);
    const polling = poll();
    await untilBlocked(db, 'update "feed_items"');
    // The poller stops at that point (its statement is canceled, as a crash would end it); the key is pruned after.
    const canceled = await db.execute(sql`select pg_cancel_backend(pid) from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "feed_items"%'`);
    expect([...canceled]).toHaveLength(1);
    await polling;
    await release();
    await db.execute(sql`delete from idempotency_keys where key = ${feedItemKey(item!.id)}`);
    await poll();
    const made = await db
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.workspaceId, workspaceId), eq(posts.text, 'Hello world https://blog.example.com/hello')));
    expect(made).toHaveLength(1);
    expect((await db.select().from(feedItems).where(eq(feedItems.id, item!.id)))[0]!.postId).toBe(made[0]!.id);
  });
});

describe('feeds — fetching', () => {
  it('sends its ETag and Last-Modified: an unchanged feed answers 304 and nothing is read', async () => {
    serve([A]);
    await poll();
    const etag = (await feedRow()).etag;
    expect(etag).toMatch(/^"/);
    await poll();
    expect(server.state.requests.map((r) => [r.ifNoneMatch, r.ifModifiedSince, r.status])).toEqual([
      [null, null, 200],
      [etag, 'Mon, 07 Dec 2026 09:00:00 GMT', 304],
    ]);
    expect((await feedRow()).lastError).toBeNull();
  });

  it('a feed too large, too slow, not a feed, or at an address the guard refuses: its reason, nothing created', async () => {
    server.state.bytes = 3 * 1024 * 1024;
    expect(await poll()).toMatchObject({ failed: 1, newItems: 0 });
    expect((await feedRow()).lastError).toBe('The feed is larger than 2 MB');
    server.state.bytes = 0;
    server.state.hangMs = 1_500;
    serve([A]);
    await poll({ limits: { timeoutMs: 300, maxBytes: 1024 * 1024 } });
    expect((await feedRow()).lastError).toBe('The feed could not be reached in time');
    server.state.hangMs = 0;
    server.state.body = '<html><body>Not a feed</body></html>';
    await poll();
    expect((await feedRow()).lastError).toMatch(/^Not a feed/);
    await db.update(feeds).set({ url: server.ipUrl }).where(eq(feeds.id, feedId));
    await poll();
    expect((await feedRow()).lastError).toMatch(/^Not fetched: the address is not public/);
    expect(await feedPosts()).toHaveLength(0);
  });

  it('reads Atom and JSON Feed; a template shapes the post; mode queue adds to an evergreen queue once', async () => {
    const template = await makeTemplate('New on the blog: {{title}} → {{link}}');
    await db.update(feeds).set({ templateId: template.id }).where(eq(feeds.id, feedId));
    server.state.contentType = 'application/atom+xml';
    server.state.body = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
      <entry><id>urn:uuid:1225c695</id><title>Atom entry</title><link href="https://blog.example.com/atom"/>
      <updated>2026-12-07T09:00:00Z</updated><summary>s</summary></entry></feed>`;
    await poll();
    server.state.contentType = 'application/feed+json';
    server.state.body = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      items: [{ id: 'j1', url: 'https://blog.example.com/json', title: 'JSON entry', content_text: 'c' }],
    });
    await poll();
    expect((await feedPosts()).map((p) => p.text)).toEqual([
      'New on the blog: Atom entry → https://blog.example.com/atom',
      'New on the blog: JSON entry → https://blog.example.com/json',
    ]);
    server.state.contentType = 'application/rss+xml';

    const queue = (await createQueue(db, {
      workspaceId,
      name: 'From the blog',
      accountIds: [accountId],
      minGapDays: 7,
    }))!;
    await addQueueItem(db, { workspaceId, queueId: queue.id, text: 'An older post', variants: [] });
    await db.update(feeds).set({ mode: 'queue', evergreenQueueId: queue.id }).where(eq(feeds.id, feedId));
    serve([C]);
    await poll();
    await poll();
    const items = await db.select().from(evergreenItems).where(eq(evergreenItems.queueId, queue.id));
    expect(items.map((i) => i.text).sort()).toEqual([
      'An older post',
      'New on the blog: A new lamp → https://blog.example.com/lamp',
    ]);
  });

  it('mode queue: an item its queue could never post (too long for X) keeps its reason and joins no queue', async () => {
    const xAccount = await makeAccount(db, workspaceId, { provider: 'x', handle: '@brand' });
    const queue = (await createQueue(db, { workspaceId, name: 'To X', accountIds: [xAccount.id], minGapDays: 7 }))!;
    await db.update(feeds).set({ mode: 'queue', evergreenQueueId: queue.id }).where(eq(feeds.id, feedId));
    serve([{ ...A, title: 'Long '.repeat(60).trim() }, B]);
    await poll();
    const items = await db
      .select()
      .from(feedItems)
      .where(eq(feedItems.feedId, feedId))
      .orderBy(asc(feedItems.createdAt));
    expect(items.map((i) => [i.title.slice(0, 10), i.error, Boolean(i.evergreenItemId)])).toEqual([
      ['Spring is ', null, true],
      ['Long Long ', expect.stringMatching(/characters, too long for @brand$/), false],
    ]);
    expect(
      (await db.select().from(evergreenItems).where(eq(evergreenItems.queueId, queue.id))).map((i) => i.text),
    ).toEqual(['Spring is here https://blog.example.com/spring']);
  });
});

describe('feeds — an item refused for a reason that passes is not lost', () => {
  const items = async () =>
    db.select().from(feedItems).where(eq(feedItems.feedId, feedId)).orderBy(asc(feedItems.createdAt));
  /** The item's next try has come (its backoff is minutes long). */
  const retryNow = () =>
    db
      .update(feedItems)
      .set({ retryAt: new Date(0) })
      .where(eq(feedItems.feedId, feedId));

  it('no free slot: the item waits with its reason, backs off, and is posted once a slot is free', async () => {
    const template = await makeTemplate('{{title}}: {{summary}}');
    await db.update(feeds).set({ mode: 'publish', templateId: template.id }).where(eq(feeds.id, feedId));
    serve([A]);
    const before = Date.now();
    await poll();
    const [waiting] = await items();
    expect(waiting).toMatchObject({
      error: null,
      postId: null,
      retries: 1,
      waitingReason: expect.stringMatching(/slot/i),
    });
    expect(waiting!.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1_000);
    await poll(); // too soon: not tried again
    expect((await items())[0]!.retries).toBe(1);
    await retryNow();
    await poll(); // still no slot: it waits twice as long
    const [again] = await items();
    expect(again).toMatchObject({ retries: 2, error: null });
    expect(again!.retryAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 10 * 60_000 - 2_000);
    const week = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
    await putPostingSchedule(db, {
      workspaceId,
      accountId,
      timeZone: 'UTC',
      slots: week.map((weekday) => ({ weekday, time: '12:00' })),
    });
    await retryNow();
    await poll();
    expect((await feedPosts()).map((p) => [p.text, p.status])).toEqual([['Hello world: First post.', 'scheduled']]);
    expect((await items())[0]).toMatchObject({ waitingReason: null, retryAt: null, error: null });
  });

  it('an account disconnected: the item waits, and is posted once it is reconnected', async () => {
    await db.update(socialAccounts).set({ disconnectedAt: new Date() }).where(eq(socialAccounts.id, accountId));
    serve([A]);
    await poll();
    expect((await items())[0]).toMatchObject({
      error: null,
      waitingReason: '@blog@social.test disconnected: reconnect to post it',
    });
    expect(await feedPosts()).toHaveLength(0);
    await db.update(socialAccounts).set({ disconnectedAt: null }).where(eq(socialAccounts.id, accountId));
    await retryNow();
    await poll();
    expect((await feedPosts()).map((p) => p.status)).toEqual(['draft']);
  });

  it('"Retry" makes an item refused for good unfinished again; only the workspace\'s own', async () => {
    await db.update(feeds).set({ mode: 'queue', evergreenQueueId: null }).where(eq(feeds.id, feedId));
    serve([A]);
    await poll();
    const [refused] = await items();
    expect(refused!.error).toBe('The feed has no evergreen queue');
    await poll();
    expect(await feedPosts()).toHaveLength(0); // not tried again on its own
    await db.update(feeds).set({ mode: 'draft' }).where(eq(feeds.id, feedId));
    expect(await retryFeedItem(db, { workspaceId: (await makeWorkspace(db)).id, id: refused!.id })).toBeNull();
    expect(await retryFeedItem(db, { workspaceId, id: refused!.id })).toBe(feedId);
    expect(await retryFeedItem(db, { workspaceId, id: refused!.id })).toBeNull(); // not refused any more
    await poll();
    expect((await feedPosts()).map((p) => p.text)).toEqual(['Hello world https://blog.example.com/hello']);
    expect((await items())[0]!.error).toBeNull();
  });
});
