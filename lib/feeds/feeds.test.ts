process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';

import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { addQueueItem, createQueue } from '@/db/queries/evergreen';
import { createFeed, takeFeedItem } from '@/db/queries/feeds';
import { createTemplate } from '@/db/queries/library';
import { deliveries, evergreenItems, feedItems, feeds, posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { rss, startFeedServer, type FeedEntry } from '@/testing/feed-server';
import { FEED_POLL_DEFAULTS, pollFeeds } from './poll';

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
    const template = (await createTemplate(db, {
      workspaceId,
      name: `feed ${randomUUID().slice(0, 4)}`,
      text: 'New on the blog: {{title}} → {{link}}',
      firstComment: null,
      accountIds: [],
      timeOfDay: null,
      mediaIds: [],
    }))!;
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
});
