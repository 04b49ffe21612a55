import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDueInboxStreams } from '@/db/queries/inbox/cursors';
import {
  deliveries,
  inboxAnswers,
  inboxCursors,
  inboxItems,
  memberships,
  notificationPreferences,
  notifications,
  notificationSends,
  platformReads,
  posts,
  webhookEndpoints,
  webhookEvents,
} from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { makeUser } from '@/testing/db/factories';
import { testInboxOptions } from '@/testing/inbox';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { answerInboxItem } from './answer';
import { readInbox, storePage } from './read-inbox';

// The inbox job around the reads (docs/inbox.md#reading): the read budget it spends, fencing, who is told of new
// items (per member preference, once), the webhook events, and answers settled when their reply ends.

const sandbox = await startTestSandbox();
const { db, store } = sandbox;
const read = (accountId: string, overrides: Parameters<typeof testInboxOptions>[1] = {}) =>
  readInbox(db, testInboxOptions(sandbox.url, { accountIds: [accountId], ...overrides }));
const eventsOf = (workspaceId: string, type: string) =>
  db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.type, type)));

describe('the inbox job', () => {
  it('spends the read budget: on a limited account it reads only the readable share, the publisher’s is left', async () => {
    const a = await sandbox.connectAccount('x');
    await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: 'Hello @you' });
    // 4 calls a minute on sandbox accounts; reads may take half.
    const summary = await read(a.productAccountId, {
      readBudget: { rateLimits: { sandbox: { max: 4, windowSeconds: 60 } }, reservedShare: 0.5 },
    });
    expect(summary.pages).toBe(2);
    expect(summary.deferred).toBe(1);
    const reads = await db.select().from(platformReads).where(eq(platformReads.accountId, a.productAccountId));
    expect(reads.map((r) => [r.purpose, r.calls])).toEqual([
      ['inbox', 1],
      ['inbox', 1],
    ]);
    // The stream it could not read waits for the window, not for the next run.
    const cursors = await db.select().from(inboxCursors).where(eq(inboxCursors.accountId, a.productAccountId));
    expect(cursors.filter((c) => c.nextReadAt.getTime() > Date.now() + 30_000)).toHaveLength(1);
  });

  it('I4 — a reader whose claim was taken over stores nothing and moves no cursor', async () => {
    const a = await sandbox.connectAccount('x');
    await read(a.productAccountId, { accountIds: ['00000000-0000-0000-0000-000000000000'] }); // only adds the streams
    await db.update(inboxCursors).set({ nextReadAt: new Date() }).where(eq(inboxCursors.accountId, a.productAccountId));
    const [stale] = await claimDueInboxStreams(db, {
      workerId: 'a',
      limit: 1,
      leaseMs: 1,
      accountIds: [a.productAccountId],
    });
    await new Promise((r) => setTimeout(r, 10));
    const [fresh] = await claimDueInboxStreams(db, {
      workerId: 'b',
      limit: 1,
      leaseMs: 30_000,
      accountIds: [a.productAccountId],
    });
    expect(fresh!.generation).toBe(stale!.generation + 1);
    const page = {
      items: [
        {
          platformId: '123456789',
          kind: 'mention' as const,
          author: { id: '1', handle: '@ana_rivera', name: 'Ana Rivera' },
          text: 'Hello',
          createdAt: new Date(),
          url: null,
          inReplyTo: null,
          conversationId: null,
          media: [],
        },
      ],
      own: [],
      cursor: 'stale',
      more: false,
    };
    expect(await storePage(db, stale!, page)).toBeNull();
    expect(await db.select().from(inboxItems).where(eq(inboxItems.accountId, a.productAccountId))).toHaveLength(0);
    const [row] = await db
      .select()
      .from(inboxCursors)
      .where(and(eq(inboxCursors.accountId, a.productAccountId), eq(inboxCursors.stream, stale!.stream)));
    expect(row!.cursor).not.toBe('stale');
    expect(await storePage(db, fresh!, page)).toEqual({ stored: 1, answered: 0 });
  });

  it('new items notify each member once, per their inbox preference (immediately, digest, off); a re-run notifies nothing more', async () => {
    const a = await sandbox.connectAccount('x');
    const [now, daily, never] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    for (const user of [now, daily, never])
      await db.insert(memberships).values({ workspaceId: a.workspaceId, userId: user.id, role: 'manager' });
    await db.insert(notificationPreferences).values([
      { workspaceId: a.workspaceId, userId: daily.id, inboxMode: 'digest' },
      // Off for the inbox, though every other notification is emailed at once.
      { workspaceId: a.workspaceId, userId: never.id, emailMode: 'immediately', inboxMode: 'off' },
    ]);
    await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: 'First @you' });
    await sendInbound(store, a.sandboxAccount, { kind: 'dm', text: 'Second, in private' });
    await read(a.productAccountId);
    await read(a.productAccountId);
    const notes = await db.select().from(notifications).where(eq(notifications.accountId, a.productAccountId));
    // One per page of new items: the mentions page and the DMs page.
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n.message).sort()).toEqual([
      expect.stringMatching(/^A new message for @sbx_\w+ on X: Ana Rivera wrote “First @you”$/),
      expect.stringMatching(/^A new message for @sbx_\w+ on X: Ana Rivera wrote “Second, in private”$/),
    ]);
    const sends = await db
      .select({ userId: notificationSends.userId, status: notificationSends.status })
      .from(notificationSends)
      .where(eq(notificationSends.workspaceId, a.workspaceId));
    expect(sends.filter((s) => s.userId === now.id).map((s) => s.status)).toEqual(['pending', 'pending']);
    expect(sends.filter((s) => s.userId === daily.id).map((s) => s.status)).toEqual(['digest', 'digest']);
    expect(sends.filter((s) => s.userId === never.id)).toEqual([]);
  });

  it('inbox.received once per item; inbox.answered once the answer’s reply is sent; a failed answer reopens its item', async () => {
    const a = await sandbox.connectAccount('x');
    await db.insert(webhookEndpoints).values({
      workspaceId: a.workspaceId,
      url: 'https://93.184.215.14/hook',
      secretSealed: 'sealed',
      events: ['inbox.received', 'inbox.answered'],
    });
    const said = await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: 'Hi @you, a question' });
    const failing = await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: 'Another one' });
    await read(a.productAccountId);
    await read(a.productAccountId);
    const received = await eventsOf(a.workspaceId, 'inbox.received');
    expect(received.map((e) => e.data.platformId).sort()).toEqual([said.id, failing.id].sort());
    const items = await db.select().from(inboxItems).where(eq(inboxItems.accountId, a.productAccountId));
    const item = items.find((i) => i.platformId === said.id)!;
    const other = items.find((i) => i.platformId === failing.id)!;
    const context = { workspaceId: a.workspaceId, actorName: 'Ana', actor: 'user:ana', source: 'form' as const };
    await answerInboxItem(db, item.id, { text: 'Here is the answer', after: 0 }, { ...context, idempotencyKey: 'k1' });
    await answerInboxItem(db, other.id, { text: 'This one fails', after: 0 }, { ...context, idempotencyKey: 'k2' });
    // The second answer's reply is refused by the platform (a definite failure).
    const [failed] = await db
      .select({ id: deliveries.id })
      .from(deliveries)
      .innerJoin(posts, eq(posts.id, deliveries.postId))
      .where(eq(posts.inReplyTo, failing.id));
    await db.execute(sql`update deliveries set status = 'canceled' where id = ${failed!.id}`);
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url));
    await read(a.productAccountId);
    await read(a.productAccountId);
    const answered = await eventsOf(a.workspaceId, 'inbox.answered');
    expect(answered).toHaveLength(1);
    expect(answered[0]!.data).toMatchObject({ itemId: item.id, source: 'semel', answer: { number: 1, by: 'Ana' } });
    expect((answered[0]!.data as { platformId: string }).platformId).toMatch(/^\d+$/);
    const settled = await db.select().from(inboxAnswers).where(eq(inboxAnswers.workspaceId, a.workspaceId));
    expect(settled.map((s) => s.outcome).sort()).toEqual(['failed', 'sent']);
    const [reopened] = await db.select().from(inboxItems).where(eq(inboxItems.id, other.id));
    expect(reopened).toMatchObject({ answeredAt: null, answerSource: null });
    const [kept] = await db.select().from(inboxItems).where(eq(inboxItems.id, item.id));
    expect(kept!.answerSource).toBe('semel');
  });
});
