import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, inboxCursors, inboxItems, inboxOwnMessages, posts } from '@/db/schema';
import { sendOnce } from '@/lib/net/send';
import type { ProviderName } from '@/lib/providers/types';
import { INBOUND_KINDS, receiveInbound } from '@/sandbox/behaviour/inbound';
import { PEOPLE } from '@/sandbox/behaviour/people';
import { recordCid, recordUri } from '@/sandbox/dialects/bluesky/records';
import { tidOf } from '@/sandbox/dialects/bluesky/tid';
import { commentUrn as linkedinCommentUrn } from '@/sandbox/dialects/linkedin/comments';
import type { SandboxPost } from '@/sandbox/store/types';
import { testInboxOptions } from '@/testing/inbox';
import { startTestSandbox } from '@/testing/sandbox';
import { readInbox, type InboxJobOptions } from './read-inbox';

// Reading per network (docs/inbox.md#networks): what the sandbox's people said to an account, served through the
// network's real wire format and read by the real provider reader through the real job. Every item is stored once
// (overlapping reads and re-runs store nothing twice), under our post where it answers one; the cursor moves forward
// (the next read asks only for what is new); a failing listing stores nothing and moves nothing; what the account
// answered itself on the platform is marked answered.

const sandbox = await startTestSandbox();
const { db, store } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const DAY = 24 * 3_600_000;

/** The requests the job sent, for what a read asked for (its cursor on the wire). */
function recordingOptions(overrides: Partial<InboxJobOptions> = {}) {
  const urls: string[] = [];
  const options = testInboxOptions(sandbox.url, {
    transport: async (request) => {
      urls.push(request.url);
      return sendOnce(request);
    },
    ...overrides,
  });
  return { options, urls };
}

/** A post of ours a day old: on the platform, and in Semel as a sent delivery with its platform id. */
async function ourPost(a: Account, make: (a: Account, at: Date) => Promise<{ post: SandboxPost; externalId: string }>) {
  const { post, externalId } = await make(a, new Date(Date.now() - DAY));
  const [row] = await db
    .insert(posts)
    .values({
      workspaceId: a.workspaceId,
      text: post.text,
      scheduledAt: post.createdAt,
      source: 'api',
      idempotencyKey: randomUUID(),
    })
    .returning();
  const [delivery] = await db
    .insert(deliveries)
    .values({
      workspaceId: a.workspaceId,
      postId: row!.id,
      accountId: a.productAccountId,
      status: 'sent',
      dueAt: post.createdAt,
      externalId,
      settledAt: post.createdAt,
    })
    .returning();
  return { post, externalId, deliveryId: delivery!.id };
}

const textPost = async (a: Account, at: Date) => {
  const post = await store.insertPost({
    account: a.sandboxAccount,
    kind: 'post',
    text: sandbox.uniqueText('ours'),
    createdAt: at,
  });
  return { post: post!, externalId: post!.id };
};

type Case = {
  make: (a: Account, at: Date) => Promise<{ post: SandboxPost; externalId: string }>;
  /** The platform id an item has in the product (the sandbox post's id, or what the network names it by). */
  idOf: (p: SandboxPost) => Promise<string>;
  /** A reply by the account itself on the platform, as another app would make it: answers `item` (none: not seen). */
  answerOnPlatform?: (a: Account, item: SandboxPost) => Promise<void>;
  /** What an answer under our post is on this network (Instagram: a comment). */
  replyKind?: 'comment';
  /** What the second read asks for, on the wire: it names the cursor the first read kept. */
  cursorOnWire: RegExp;
};

/** The account's own reply under a comment, as the network's app makes it (listed only under that comment). */
const commentReply = async (a: Account, item: SandboxPost) => {
  await store.insertPost({
    account: a.sandboxAccount,
    kind: 'reply',
    text: sandbox.uniqueText('answered elsewhere'),
    inReplyToId: item.id,
  });
};

const CASES: Partial<Record<ProviderName, Case>> = {
  x: {
    make: textPost,
    idOf: async (p) => p.id,
    answerOnPlatform: async (a, item) => {
      const kind = item.kind === 'dm' ? 'dm' : 'reply';
      await store.insertPost({
        account: a.sandboxAccount,
        kind,
        text: sandbox.uniqueText('answered elsewhere'),
        ...(kind === 'dm'
          ? { recipientId: (await store.getAccountById(item.accountId))!.platformUserId }
          : { inReplyToId: item.id }),
      });
    },
    cursorOnWire: /\/mentions\?.*since_id=\d+/,
  },
  mastodon: {
    make: textPost,
    idOf: async (p) => p.id,
    answerOnPlatform: async (a, item) => {
      const author = (await store.getAccountById(item.accountId))!;
      const acct = author.handle.replace(/^@/, '').split('@')[0]!;
      await store.insertPost({
        account: a.sandboxAccount,
        ...(item.kind === 'dm'
          ? { kind: 'dm', text: `@${acct} ${sandbox.uniqueText('answered elsewhere')}`, recipientId: acct }
          : { kind: 'reply', text: sandbox.uniqueText('answered elsewhere'), inReplyToId: item.id }),
      });
    },
    cursorOnWire: /\/notifications\?.*min_id=\d+/,
  },
  bluesky: {
    make: async (a, at) => {
      const recordKey = tidOf(BigInt(at.getTime()) * 1000n, 7);
      const text = sandbox.uniqueText('ours');
      const post = await store.insertPost({
        account: a.sandboxAccount,
        kind: 'post',
        text,
        recordKey,
        record: { $type: 'app.bsky.feed.post', text, createdAt: at.toISOString() },
      });
      // A PDS dates a record when it is written: moved back as if written then.
      await db.execute(
        sql`update sandbox.posts set created_at = ${at.toISOString()}::timestamptz where id = ${post!.id}::bigint`,
      );
      return { post: (await store.getPost(post!.id))!, externalId: recordUri(a.sandboxAccount, recordKey) };
    },
    idOf: async (p) => recordUri((await store.getAccountById(p.accountId))!, p.recordKey!),
    answerOnPlatform: async (a, item) => {
      const author = (await store.getAccountById(item.accountId))!;
      const parent = { uri: recordUri(author, item.recordKey!), cid: recordCid(item.record ?? {}) };
      const text = sandbox.uniqueText('answered elsewhere');
      const createdAt = new Date();
      await store.insertPost({
        account: a.sandboxAccount,
        kind: 'reply',
        text,
        inReplyToId: parent.uri,
        recordKey: tidOf(BigInt(createdAt.getTime()) * 1000n, 9),
        record: {
          $type: 'app.bsky.feed.post',
          text,
          createdAt: createdAt.toISOString(),
          reply: { root: parent, parent },
        },
        createdAt,
      });
    },
    cursorOnWire: /listNotifications\?/,
  },
  threads: {
    make: textPost,
    idOf: async (p) => p.id,
    answerOnPlatform: async (a, item) => {
      await store.insertPost({
        account: a.sandboxAccount,
        kind: 'reply',
        text: sandbox.uniqueText('answered elsewhere'),
        inReplyToId: item.id,
      });
    },
    cursorOnWire: /\/mentions\?.*since=\d+/,
  },
  instagram: {
    make: textPost,
    idOf: async (p) => p.id,
    answerOnPlatform: (a, item) => commentReply(a, item),
    replyKind: 'comment',
    cursorOnWire: /\/comments\?/,
  },
  linkedin: {
    make: async (a, at) => {
      const { post } = await textPost(a, at);
      return { post, externalId: `urn:li:share:${post.id}` };
    },
    idOf: async (p) => linkedinCommentUrn(p),
    replyKind: 'comment',
    cursorOnWire: /\/rest\/socialActions\/urn%3Ali%3Ashare%3A\d+\/comments\?/,
  },
  facebook: {
    make: async (a, at) => {
      const { post } = await textPost(a, at);
      return { post, externalId: `${a.platformUserId}_${post.id}` };
    },
    idOf: async (p) => `${p.inReplyToId}_${p.id}`,
    answerOnPlatform: (a, item) => commentReply(a, item),
    replyKind: 'comment',
    cursorOnWire: /_\d+\/comments\?/,
  },
  youtube: {
    make: textPost,
    idOf: async (p) => p.id,
    answerOnPlatform: (a, item) => commentReply(a, item),
    replyKind: 'comment',
    cursorOnWire: /\/youtube\/v3\/commentThreads\?/,
  },
};

const inboundOf = (a: Account) =>
  store.listInbound(a.sandboxAccount.id, { kinds: ['post', 'reply', 'dm'], limit: 1000 });
const storedOf = (a: Account) => db.select().from(inboxItems).where(eq(inboxItems.accountId, a.productAccountId));

describe.each(Object.entries(CASES) as [ProviderName, Case][])('%s inbox', (network, c) => {
  it('stores everything people said once, under our post where it answers one; a re-run and an overlapping read store nothing twice', async () => {
    const a = await sandbox.connectAccount(network);
    const ours = await ourPost(a, c.make);
    await sandbox.setFaults(a.sandboxAccount.id, { inboundPerDay: 40 });
    await receiveInbound(store, a.sandboxAccount);
    const said = await inboundOf(a);
    expect(said.length).toBeGreaterThan(10);

    const first = await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
    expect(first.stored).toBe(said.length);
    const stored = await storedOf(a);
    expect(stored.map((i) => i.platformId).sort()).toEqual((await Promise.all(said.map(c.idOf))).sort());
    const replies = said.filter((p) => p.inReplyToId);
    expect(replies.length).toBeGreaterThan(0);
    for (const p of replies) {
      const id = await c.idOf(p);
      const item = stored.find((i) => i.platformId === id)!;
      expect(item, p.id).toMatchObject({ kind: c.replyKind ?? 'reply', deliveryId: ours.deliveryId });
    }
    expect(stored.every((i) => i.answeredAt === null && i.text.length > 0 && i.authorHandle.length > 1)).toBe(true);

    // A re-run reads from its cursors and stores nothing.
    expect((await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }))).stored).toBe(0);
    // Two readers at once from the very start (cursors lost): every page is read twice, nothing stored twice.
    await db.update(inboxCursors).set({ cursor: null }).where(eq(inboxCursors.accountId, a.productAccountId));
    const racing = await Promise.all(
      [1, 2, 3].map(() => readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }))),
    );
    expect(racing.reduce((n, r) => n + r.stored, 0)).toBe(0);
    expect(await storedOf(a)).toHaveLength(said.length);
  });

  it('reads forward from its cursor: only what is new; a failing listing stores nothing and keeps the cursor', async () => {
    const a = await sandbox.connectAccount(network);
    await ourPost(a, c.make);
    await sandbox.setFaults(a.sandboxAccount.id, { inboundPerDay: 20 });
    await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
    const before = await storedOf(a);
    const cursors = await db.select().from(inboxCursors).where(eq(inboxCursors.accountId, a.productAccountId));

    await sandbox.setFaults(a.sandboxAccount.id, { inboundPerDay: 20, listingUnavailable: 1 });
    const failing = await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
    expect(failing.unreadable).toBeGreaterThan(0);
    expect(failing.stored).toBe(0);
    const after = await db.select().from(inboxCursors).where(eq(inboxCursors.accountId, a.productAccountId));
    expect(after.map((r) => r.cursor).sort()).toEqual(cursors.map((r) => r.cursor).sort());
    expect(after.every((r) => r.failures === 1 && r.lastError)).toBe(true);

    // Something new arrives: the next read asks from where it was and stores only that.
    await sandbox.setFaults(a.sandboxAccount.id, { inboundPerDay: 20 });
    const [latest] = await store.listPosts(a.sandboxAccount.id, { kinds: ['post'], limit: 1 });
    const { sendInbound } = await import('@/sandbox/behaviour/inbound');
    const fresh = await sendInbound(store, a.sandboxAccount, { kind: 'reply', text: 'A fresh reply', replyTo: latest });
    await db.update(inboxCursors).set({ nextReadAt: new Date() }).where(eq(inboxCursors.accountId, a.productAccountId));
    const { options, urls } = recordingOptions({ accountIds: [a.productAccountId] });
    const next = await readInbox(db, options);
    expect(next.stored).toBe(1);
    expect(urls.some((u) => c.cursorOnWire.test(u))).toBe(true);
    const items = await storedOf(a);
    expect(items).toHaveLength(before.length + 1);
    const freshId = await c.idOf(fresh);
    expect(items.find((i) => i.platformId === freshId)).toMatchObject({
      text: 'A fresh reply',
      kind: c.replyKind ?? 'reply',
    });
  });

  it.runIf(c.answerOnPlatform)(
    'an item the account answered on the platform itself (from another app) is marked answered, before or after it is read',
    async () => {
      const answerOnPlatform = c.answerOnPlatform!;
      const a = await sandbox.connectAccount(network);
      await ourPost(a, c.make);
      await sandbox.setFaults(a.sandboxAccount.id, { inboundPerDay: 20 });
      await receiveInbound(store, a.sandboxAccount);
      const [first, second] = (await inboundOf(a)).filter((p) => p.kind !== 'dm');
      // One answered before the first read, one after it.
      await answerOnPlatform(a, first!);
      await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
      await answerOnPlatform(a, second!);
      await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
      const answered = await db
        .select()
        .from(inboxItems)
        .where(and(eq(inboxItems.accountId, a.productAccountId), sql`${inboxItems.answeredAt} is not null`));
      expect(answered.map((i) => i.platformId).sort()).toEqual([await c.idOf(first!), await c.idOf(second!)].sort());
      expect(answered.every((i) => i.answerSource === 'platform' && i.platformAnswerId)).toBe(true);
      // What the account said is kept with its message: named when a later answer from Semel is refused.
      const own = await db.select().from(inboxOwnMessages).where(eq(inboxOwnMessages.accountId, a.productAccountId));
      for (const i of answered)
        expect(own.find((o) => o.platformId === i.platformAnswerId)?.text).toContain('answered elsewhere');
    },
  );

  it.runIf(INBOUND_KINDS[network].includes('dm'))(
    'a DM the account sent from another app answers that conversation up to then: the person’s earlier DMs, not later ones',
    async () => {
      const a = await sandbox.connectAccount(network);
      const [ana, ben] = PEOPLE;
      const { sendInbound } = await import('@/sandbox/behaviour/inbound');
      const dm = (person: typeof ana, text: string, minutesAgo: number) =>
        sendInbound(store, a.sandboxAccount, {
          kind: 'dm',
          text,
          person,
          at: new Date(Date.now() - minutesAgo * 60_000),
        });
      const early = await dm(ana, 'Hello?', 30);
      const other = await dm(ben, 'Hi from Ben', 25);
      const asked = await dm(ana, 'Anyone there?', 20);
      await c.answerOnPlatform!(a, asked);
      await new Promise((r) => setTimeout(r, 5));
      const late = await dm(ana, 'Thanks!', 0);
      await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
      const items = await storedOf(a);
      const ids = await Promise.all([early, asked, other, late].map(c.idOf));
      const answeredOf = (id: string) => items.find((i) => i.platformId === id)!.answeredAt !== null;
      expect(ids.map(answeredOf)).toEqual([true, true, false, false]);
    },
  );
});
