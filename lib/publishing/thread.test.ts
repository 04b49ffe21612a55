import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimDueDeliveries, resolveReviewItem, startAttempts } from '@/db/queries/deliveries';
import { deliveries, deliveryEvents } from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import type { FaultSettings, Platform, SandboxPost } from '@/sandbox/store/types';
import { publishDueDeliveries } from './publish-due';
import { attemptCount, deliveryStates, scheduleThread, testPublisherOptions } from '@/testing/publisher';

// Threads, end to end (DESIGN I1, I2): the publisher and the reconciler with the real clients against the sandbox
// (Postgres store, real sockets). Each part is one delivery per account, claimed only once the part before it is
// sent, and published as a reply to it; the chain and the copies are checked on the platform's own records.

const CALL_TIMEOUT_MS = 300;
const ROOMY_TIMEOUT_MS = 3_000;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const publish = (callTimeoutMs = ROOMY_TIMEOUT_MS) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs }));
const reconcile = (overrides: Partial<ReconcileOptions> = {}) =>
  reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, overrides));
const states = async (ids: string[]) => {
  const map = await deliveryStates(db, ids);
  return ids.map((id) => map.get(id)!);
};
const statuses = async (ids: string[]) => (await states(ids)).map((s) => s.status);
const attempts = async (ids: string[]) => Promise.all(ids.map((id) => attemptCount(db, id)));
const expireLeases = () =>
  db.execute(sql`update claims set lease_expires_at = now() - interval '1 second' where released_at is null`);
/** Holds a part back (not due) so a test can stop a thread before it; `dueNow` lets it go on. */
const holdBack = (id: string) =>
  db
    .update(deliveries)
    .set({ dueAt: new Date(Date.now() + 3_600_000) })
    .where(eq(deliveries.id, id));
const dueNow = (ids: string[]) => db.update(deliveries).set({ dueAt: new Date() }).where(inArray(deliveries.id, ids));
const lastReason = async (id: string) =>
  (
    await db
      .select({ reason: deliveryEvents.reason })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, id))
      .orderBy(sql`${deliveryEvents.id} desc`)
      .limit(1)
  )[0]?.reason;

const threadTexts = (label: string, n = 3) => {
  const tag = sandbox.uniqueText(label);
  return Array.from({ length: n }, (_, k) => `${tag} — part ${k + 1}/${n}`);
};

/** The platform's id of a stored copy, as a reply names its parent (Bluesky: the record's at:// URI). */
function platformId(account: Account, platform: Platform, post: SandboxPost): string {
  return platform === 'bluesky' ? `at://${account.platformUserId}/app.bsky.feed.post/${post.recordKey}` : post.id;
}

/**
 * On the platform's own records: exactly one live copy of each part, part 1 a post and part k a reply to part
 * k-1's copy. Returns the copies in part order.
 */
async function expectChain(account: Account, platform: Platform, texts: string[]) {
  const stored = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => !p.deletedAt);
  const copies = texts.map((text) => stored.filter((p) => p.text === text));
  expect(copies.map((c) => c.length)).toEqual(texts.map(() => 1)); // I1: one copy per part
  const chain = copies.map((c) => c[0]!);
  expect(chain[0]!.inReplyToId).toBeNull();
  for (let k = 1; k < chain.length; k++)
    expect(chain[k]!.inReplyToId, `${platform} part ${k + 1}'s parent`).toBe(
      platformId(account, platform, chain[k - 1]!),
    );
  return chain;
}

/** A thread of 3 on one account, stopped after its first part is sent (part 2 held back until released). */
async function threadAtPart2(platform: Platform, label: string) {
  const account = await sandbox.connectAccount(platform);
  const texts = threadTexts(label);
  const { byAccount, postId } = await scheduleThread(db, {
    workspaceId: account.workspaceId,
    accountIds: [account.productAccountId],
    parts: texts,
  });
  const ids = byAccount.get(account.productAccountId)!;
  await holdBack(ids[1]!);
  await publish();
  expect(await statuses(ids)).toEqual(['sent', 'scheduled', 'scheduled']);
  return { account, texts, ids, postId };
}

/** Part 2 made ambiguous by `faults` on its one call; the platform then answers normally again. */
async function ambiguousPart2(platform: Platform, label: string, faults: Partial<FaultSettings>) {
  const thread = await threadAtPart2(platform, label);
  await sandbox.setFaults(thread.account.sandboxAccount.id, faults);
  await dueNow([thread.ids[1]!]);
  await publish(CALL_TIMEOUT_MS);
  expect(await statuses(thread.ids)).toEqual(['sent', 'ambiguous', 'scheduled']);
  await sandbox.setFaults(thread.account.sandboxAccount.id, {});
  // The thread stops at part 2: more passes neither claim part 3 nor touch part 1.
  await publish();
  await publish();
  expect(await statuses(thread.ids)).toEqual(['sent', 'ambiguous', 'scheduled']);
  expect(await attempts(thread.ids)).toEqual([1, 1, 0]);
  await dueNow([thread.ids[1]!]); // the tests' reconciler reads at once
  return thread;
}

describe('threads — I1: each part published once, in order, as a reply to the part before it', () => {
  it('I1 — a thread of 3 goes out as a chained thread with one copy per part on x, mastodon, bluesky and threads', async () => {
    const platforms = ['x', 'mastodon', 'bluesky', 'threads'] as const;
    const first = await sandbox.connectAccount('x');
    const accounts = [
      first,
      ...(await Promise.all(platforms.slice(1).map((p) => sandbox.connectAccount(p, first.workspaceId)))),
    ];
    const texts = threadTexts('chain');
    const { byAccount } = await scheduleThread(db, {
      workspaceId: first.workspaceId,
      accountIds: accounts.map((a) => a.productAccountId),
      parts: texts,
    });
    // One pass: each sent part makes the next claimable, and the pass goes on with it.
    const summary = await publish();
    expect(summary.sent).toBe(12);
    for (const [i, platform] of platforms.entries()) {
      const account = accounts[i]!;
      const ids = byAccount.get(account.productAccountId)!;
      const sent = await states(ids);
      expect(sent.map((s) => s.status)).toEqual(['sent', 'sent', 'sent']);
      expect(await attempts(ids)).toEqual([1, 1, 1]);
      const chain = await expectChain(account, platform, texts);
      // Our record of each part names the copy the platform holds for it.
      expect(sent.map((s) => s.externalId)).toEqual(chain.map((c) => platformId(account, platform, c)));
    }
  });

  it('I1 — a part is never claimed before the part before it is sent, whatever its due time', async () => {
    const { ids } = await threadAtPart2('x', 'order');
    const claimed = await claimDueDeliveries(db, { workerId: 'order-check', limit: 100, leaseMs: 30_000 });
    expect(claimed.map((c) => c.deliveryId)).not.toContain(ids[2]); // due, but part 2 is not sent
    expect(claimed.map((c) => c.deliveryId)).not.toContain(ids[1]); // held back
  });
});

describe('threads — I2: a crash in part 2 stops the thread at part 2 until it is settled', () => {
  it('I2 — a worker killed after claiming part 2 (no call): the lapsed claim is released, part 2 published once, part 3 follows', async () => {
    const { account, texts, ids } = await threadAtPart2('x', 'crash before call');
    await dueNow([ids[1]!]);
    const claimed = await claimDueDeliveries(db, { workerId: 'doomed', limit: 100, leaseMs: 30_000 });
    expect(claimed.map((c) => c.deliveryId)).toContain(ids[1]);
    await expireLeases(); // the worker died: its lease runs out
    const summary = await publish();
    expect(summary.released).toBeGreaterThanOrEqual(1);
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 1, 1]);
    await expectChain(account, 'x', texts);
  });

  it('I2 — a worker killed after its call reached the platform: part 2 is ambiguous, found, never resent; part 3 replies to it', async () => {
    const { account, texts, ids } = await threadAtPart2('mastodon', 'crash after call');
    await dueNow([ids[1]!]);
    const claimed = (await claimDueDeliveries(db, { workerId: 'doomed', limit: 100, leaseMs: 30_000 })).filter(
      (c) => c.deliveryId === ids[1],
    );
    const [attempt] = await startAttempts(db, { claims: claimed, minLeaseMs: 0 });
    expect(attempt).toMatchObject({ part: 1, kind: 'reply', text: texts[1] });
    // The doomed worker's call, as it made it: the platform creates part 2, then the worker dies before recording.
    const sent = await account.client.publish({
      text: attempt!.text,
      kind: 'reply',
      inReplyTo: attempt!.inReplyTo!,
      idempotencyKey: attempt!.deliveryId,
    });
    expect(sent.outcome).toBe('sent');
    await expireLeases();
    await publish(); // the sweep: the call had started, so part 2 is ambiguous, not released
    expect(await statuses(ids)).toEqual(['sent', 'ambiguous', 'scheduled']);
    await dueNow([ids[1]!]);
    expect((await reconcile()).found).toBeGreaterThanOrEqual(1);
    expect((await states(ids))[1]).toMatchObject({ status: 'sent', externalId: sent.externalId });
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 1, 1]);
    await expectChain(account, 'mastodon', texts);
  });
});

describe('threads — I1, I2: an ambiguous part 2 is settled before the thread goes on', () => {
  it('I1 — found: part 2 landed despite the timeout; it is marked sent, never resent, and part 3 replies to it', async () => {
    const { account, texts, ids } = await ambiguousPart2('x', 'found', { timeoutAfterCommit: 1 });
    expect((await reconcile()).found).toBeGreaterThanOrEqual(1);
    expect((await statuses(ids)).slice(0, 2)).toEqual(['sent', 'sent']);
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 1, 1]);
    await expectChain(account, 'x', texts);
  });

  it('I2 — not found in two reads: part 2 is republished once (part 1 never), then part 3', async () => {
    const { account, texts, ids } = await ambiguousPart2('mastodon', 'not found', { timeoutBeforeCommit: 1 });
    await reconcile(); // first read: not found yet
    expect((await reconcile()).released).toBeGreaterThanOrEqual(1); // second read: released
    expect(await statuses(ids)).toEqual(['sent', 'scheduled', 'scheduled']);
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 2, 1]);
    await expectChain(account, 'mastodon', texts);
  });

  it('I2 — not found by its record key (Bluesky): part 2 is republished once under the same key, then part 3', async () => {
    const { account, texts, ids } = await ambiguousPart2('bluesky', 'record key', { timeoutBeforeCommit: 1 });
    expect((await reconcile()).released).toBeGreaterThanOrEqual(1);
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 2, 1]);
    await expectChain(account, 'bluesky', texts);
  });

  it('I2 — review: part 2 waits for the admin (part 3 is never claimed meanwhile); "publish now" goes on once', async () => {
    const { account, texts, ids, postId } = await ambiguousPart2('x', 'review publish', { timeoutBeforeCommit: 1 });
    await reconcile({ maxReleases: 0 });
    await reconcile({ maxReleases: 0 });
    expect(await statuses(ids)).toEqual(['sent', 'needs_review', 'scheduled']);
    await publish();
    expect(await attempts(ids)).toEqual([1, 1, 0]);
    const admin = await makeUser(db);
    const decided = await resolveReviewItem(db, {
      workspaceId: account.workspaceId,
      deliveryId: ids[1]!,
      actorUserId: admin.id,
      resolution: { action: 'publish' },
    });
    expect(decided.applied).toBe(true);
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'sent']);
    expect(await attempts(ids)).toEqual([1, 2, 1]);
    await expectChain(account, 'x', texts);
    expect(postId).toBeTruthy();
  });

  it('I2 — review: canceling part 2 cancels the rest of the thread, with the reason; nothing more is published', async () => {
    const { account, texts, ids } = await ambiguousPart2('x', 'review cancel', { timeoutBeforeCommit: 1 });
    await reconcile({ maxReleases: 0 });
    await reconcile({ maxReleases: 0 });
    const admin = await makeUser(db);
    await resolveReviewItem(db, {
      workspaceId: account.workspaceId,
      deliveryId: ids[1]!,
      actorUserId: admin.id,
      resolution: { action: 'cancel' },
    });
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'canceled', 'canceled']);
    expect(await lastReason(ids[2]!)).toBe('Not published: part 2 of the thread was canceled');
    expect(await attempts(ids)).toEqual([1, 1, 0]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, texts[0]!)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, texts[2]!)).toBe(0);
  });
});

describe('threads — I2: every part ends settled', () => {
  it('I2 — a failed part fails the parts after it (nothing to reply to), with the reason', async () => {
    const { account, ids } = await threadAtPart2('bluesky', 'failed');
    // Part 1 is deleted on the platform before part 2 goes out: the reply target is gone, a definite failure.
    const [part1] = await states([ids[0]!]);
    expect((await account.client.deletePost(part1!.externalId!)).ok).toBe(true);
    await dueNow([ids[1]!]);
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'failed', 'failed']);
    expect(await lastReason(ids[2]!)).toBe(
      'Not published: part 2 of the thread failed, so this part has nothing to reply to',
    );
    expect(await attempts(ids)).toEqual([1, 1, 0]);
  });

  it('I2 — a thread past the lateness limit is missed as a whole, each part with its reason', async () => {
    const account = await sandbox.connectAccount('x');
    const texts = threadTexts('late');
    const { byAccount } = await scheduleThread(db, {
      workspaceId: account.workspaceId,
      accountIds: [account.productAccountId],
      parts: texts,
      scheduledAt: new Date(Date.now() - 2 * 3_600_000),
    });
    const ids = byAccount.get(account.productAccountId)!;
    await publish();
    expect(await statuses(ids)).toEqual(['missed', 'missed', 'missed']);
    expect(await lastReason(ids[0]!)).toBe('part 1 of the thread: past the workspace lateness limit');
    expect(await lastReason(ids[1]!)).toBe(
      'Not published: part 1 of the thread was missed (past the workspace lateness limit)',
    );
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('I2 — part 2 found after the lateness limit: part 3 is missed, not published late', async () => {
    const { account, texts, ids, postId } = await ambiguousPart2('x', 'found late', { timeoutAfterCommit: 1 });
    // The limit runs out while part 2 is being verified (the post is now two hours old, and so is the due time of the
    // part waiting behind it: two hours have passed for both).
    await db.execute(sql`update posts set scheduled_at = now() - interval '2 hours' where id = ${postId}`);
    await db.execute(
      sql`update deliveries set due_at = now() - interval '2 hours' where post_id = ${postId} and status = 'scheduled'`,
    );
    await reconcile();
    await publish();
    expect(await statuses(ids)).toEqual(['sent', 'sent', 'missed']);
    expect(await lastReason(ids[2]!)).toBe('part 3 of the thread: past the workspace lateness limit');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, texts[1]!)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, texts[2]!)).toBe(0);
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(and(eq(deliveries.postId, postId), eq(deliveries.status, 'sent')));
    expect(row!.n).toBe(2);
  });
});
