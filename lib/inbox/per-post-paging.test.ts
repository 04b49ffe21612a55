import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, inboxCursors, inboxItems, platformReads, posts } from '@/db/schema';
import { sendOnce } from '@/lib/net/send';
import type { ProviderName } from '@/lib/providers/types';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { PEOPLE } from '@/sandbox/behaviour/people';
import { commentUrn as linkedinCommentUrn } from '@/sandbox/dialects/linkedin/comments';
import type { SandboxPost } from '@/sandbox/store/types';
import { testInboxOptions } from '@/testing/inbox';
import { startTestSandbox } from '@/testing/sandbox';
import { readInbox, type InboxJobOptions } from './read-inbox';

// Per-post streams follow the platform's paging (docs/inbox.md#reading): a post of ours with more comments than one
// page is read to its last page, through each network's real wire format in the sandbox. When the read budget stops a
// run inside a post, the cursor keeps the page it reached and the next run goes on from there (it asks for that page,
// not the first); every comment is stored once, and a re-run stores nothing.

const sandbox = await startTestSandbox();
const { db, store } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const DAY = 24 * 3_600_000;
/** More than any reader's page (50; Threads' 100): three pages on most networks, two on Threads. */
const COMMENTS = 130;

type Case = {
  /** Our post's platform id as Semel keeps it (the delivery's external id). */
  externalId: (a: Account, post: SandboxPost) => string;
  /** A comment's platform id in the product. */
  idOf: (comment: SandboxPost) => string;
  /** A read of this post's comments that asks for a later page (the platform's cursor on the wire). */
  laterPage: (post: SandboxPost) => RegExp;
};

const CASES: Record<Exclude<ProviderName, 'x' | 'mastodon' | 'bluesky' | 'tiktok'>, Case> = {
  instagram: {
    externalId: (_, p) => p.id,
    idOf: (c) => c.id,
    laterPage: (p) => new RegExp(`/${p.id}/comments\\?.*after=`),
  },
  facebook: {
    externalId: (a, p) => `${a.platformUserId}_${p.id}`,
    idOf: (c) => `${c.inReplyToId}_${c.id}`,
    laterPage: (p) => new RegExp(`_${p.id}/comments\\?.*after=`),
  },
  youtube: {
    externalId: (_, p) => p.id,
    idOf: (c) => c.id,
    laterPage: (p) => new RegExp(`/commentThreads\\?.*videoId=${p.id}.*pageToken=`),
  },
  linkedin: {
    externalId: (_, p) => `urn:li:share:${p.id}`,
    idOf: (c) => linkedinCommentUrn(c),
    laterPage: (p) => new RegExp(`urn%3Ali%3Ashare%3A${p.id}/comments\\?start=[1-9]`),
  },
  threads: {
    externalId: (_, p) => p.id,
    idOf: (c) => c.id,
    laterPage: (p) => new RegExp(`/${p.id}/conversation\\?.*after=`),
  },
};

/** A post of ours a day old, on the platform and in Semel as a sent delivery, with `COMMENTS` comments under it. */
async function postWithManyComments(a: Account, c: Case) {
  const at = new Date(Date.now() - DAY);
  const post = (await store.insertPost({
    account: a.sandboxAccount,
    kind: 'post',
    text: sandbox.uniqueText('ours'),
    createdAt: at,
  }))!;
  const [row] = await db
    .insert(posts)
    .values({
      workspaceId: a.workspaceId,
      text: post.text,
      scheduledAt: at,
      source: 'api',
      idempotencyKey: randomUUID(),
    })
    .returning();
  await db.insert(deliveries).values({
    workspaceId: a.workspaceId,
    postId: row!.id,
    accountId: a.productAccountId,
    status: 'sent',
    dueAt: at,
    externalId: c.externalId(a, post),
    settledAt: at,
  });
  const comments: SandboxPost[] = [];
  for (let n = 0; n < COMMENTS; n++)
    comments.push(
      await sendInbound(store, a.sandboxAccount, {
        kind: 'reply',
        text: `Comment ${n + 1} of ${COMMENTS}`,
        person: PEOPLE[n % PEOPLE.length],
        replyTo: post,
        at: new Date(Date.now() - (COMMENTS - n) * 1_000),
      }),
    );
  return { post, comments };
}

function run(a: Account, readBudget?: InboxJobOptions['readBudget']) {
  const urls: string[] = [];
  const options = testInboxOptions(sandbox.url, {
    accountIds: [a.productAccountId],
    transport: async (request) => {
      urls.push(request.url);
      return sendOnce(request);
    },
    ...(readBudget ? { readBudget } : {}),
  });
  return readInbox(db, options).then((summary) => ({ summary, urls }));
}

const storedIds = async (a: Account) =>
  (await db.select().from(inboxItems).where(eq(inboxItems.accountId, a.productAccountId))).map((i) => i.platformId);

/** Two reads a minute on the account: the rest of the window is publishing's. */
const TIGHT = { rateLimits: { sandbox: { max: 4, windowSeconds: 60 } }, reservedShare: 0.5 };

describe.each(Object.entries(CASES) as [keyof typeof CASES, Case][])('%s comments on one post', (network, c) => {
  it('a post with more comments than a page is read to its last page across two runs when the budget stops the first; each stored once', async () => {
    const a = await sandbox.connectAccount(network);
    const { post, comments } = await postWithManyComments(a, c);
    const all = comments.map(c.idOf).sort();

    // The budget allows two calls: the first run stops inside the post's comments.
    const first = await run(a, TIGHT);
    expect(first.summary.deferred).toBeGreaterThan(0);
    const afterFirst = await storedIds(a);
    expect(afterFirst.length).toBeGreaterThan(0);
    expect(afterFirst.length).toBeLessThan(COMMENTS);

    // The window passes: the next run asks for the page the first one reached, not the post's first page again.
    await db.execute(
      sql`update platform_reads set taken_at = taken_at - interval '61 seconds' where account_id = ${a.productAccountId}`,
    );
    await db.update(inboxCursors).set({ nextReadAt: new Date() }).where(eq(inboxCursors.accountId, a.productAccountId));
    const second = await run(a, TIGHT);
    const resumed = second.urls.filter((u) => u.includes(post.id));
    expect(resumed.length).toBeGreaterThan(0);
    expect(c.laterPage(post).test(resumed[0]!), resumed[0]).toBe(true);
    expect(second.summary.stored).toBe(COMMENTS - afterFirst.length);

    const stored = await storedIds(a);
    expect(stored.sort()).toEqual(all);
    expect(new Set(stored).size).toBe(COMMENTS);
    expect(
      await db.select().from(platformReads).where(eq(platformReads.accountId, a.productAccountId)),
    ).not.toHaveLength(0);

    // A re-run (no limit: every page of the round read again) stores nothing twice.
    await db.update(inboxCursors).set({ nextReadAt: new Date() }).where(eq(inboxCursors.accountId, a.productAccountId));
    const again = await run(a);
    expect(again.summary.stored).toBe(0);
    expect(again.urls.some((u) => c.laterPage(post).test(u))).toBe(true);
    expect(await storedIds(a)).toHaveLength(COMMENTS);
  });
});
