import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resolveReviewItem } from '@/db/queries/deliveries';
import { deliveries, deliveryEvents } from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { attemptCount, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import type { FaultSettings, Platform } from '@/sandbox/store/types';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { createPost } from './create';
import { createPostRequestSchema } from './schemas';

// First comments end to end (DESIGN I1, I2; docs/architecture.md#first-comments): a post made by the use case with
// `firstComment`, published and reconciled by the real publisher and reconciler against the sandbox (Postgres store,
// real sockets). The comment is the post's part 1: claimed only once part 0 is `sent`, published as a reply to it —
// never under a post that failed, was canceled or waits in review — and settled like any delivery when its own call
// has an unknown outcome. Copies are counted on the platform's own records.

const CALL_TIMEOUT_MS = 300;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const publish = (callTimeoutMs = 3_000) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs }));
const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));

/** A post with a first comment, due now, on these accounts (all of one workspace): its deliveries by account. */
async function postWithComment(accounts: Account[], label: string) {
  const [text, comment] = [sandbox.uniqueText(`${label} post`), sandbox.uniqueText(`${label} comment`)];
  const created = await createPost(
    db,
    createPostRequestSchema.parse({ text, firstComment: comment, accountIds: accounts.map((a) => a.productAccountId) }),
    { workspaceId: accounts[0]!.workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
  );
  if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
  const rows = await db
    .select({ id: deliveries.id, accountId: deliveries.accountId, part: deliveries.part })
    .from(deliveries)
    .where(eq(deliveries.postId, created.postId))
    .orderBy(asc(deliveries.part));
  const of = (a: Account) => rows.filter((r) => r.accountId === a.productAccountId).map((r) => r.id);
  return { postId: created.postId, text, comment, of };
}
const state = async (id: string) =>
  (
    await db
      .select({ status: deliveries.status, externalId: deliveries.externalId, failureReason: deliveries.failureReason })
      .from(deliveries)
      .where(eq(deliveries.id, id))
  )[0]!;
const statuses = async (ids: string[]) => Promise.all(ids.map(async (id) => (await state(id)).status));
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
const holdBack = (id: string) =>
  db
    .update(deliveries)
    .set({ dueAt: new Date(Date.now() + 3_600_000) })
    .where(eq(deliveries.id, id));
const lastReason = async (id: string) =>
  (
    await db
      .select({ reason: deliveryEvents.reason })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, id))
      .orderBy(sql`${deliveryEvents.id} desc`)
      .limit(1)
  )[0]?.reason;
const repliesTo = async (account: Account, parentId: string) =>
  (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.inReplyToId === parentId && !p.deletedAt);

describe('first comments — I1: once, under its own post, after it is sent', () => {
  it('I1 — on X, Mastodon, Bluesky and Threads: each comment is one reply to its post, published in the same pass', async () => {
    const platforms: Platform[] = ['x', 'mastodon', 'bluesky', 'threads'];
    const first = await sandbox.connectAccount('x');
    const accounts = [
      first,
      ...(await Promise.all(platforms.slice(1).map((p) => sandbox.connectAccount(p, first.workspaceId)))),
    ];
    const { of, text, comment } = await postWithComment(accounts, 'everywhere');
    const summary = await publish();
    expect(summary.sent).toBe(8);
    await publish();
    for (const [i, account] of accounts.entries()) {
      const platform = platforms[i]!;
      const [post, reply] = of(account);
      expect(await statuses([post!, reply!])).toEqual(['sent', 'sent']);
      const stored = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => !p.deletedAt);
      expect(stored.filter((p) => p.text === text)).toHaveLength(1);
      expect(stored.filter((p) => p.text === comment)).toHaveLength(1);
      const parent = stored.find((p) => p.text === text)!;
      const child = stored.find((p) => p.text === comment)!;
      const parentId =
        platform === 'bluesky' ? `at://${account.platformUserId}/app.bsky.feed.post/${parent.recordKey}` : parent.id;
      expect(child.inReplyToId, `${platform}: the comment replies to its post`).toBe(parentId);
      expect(await attemptCount(db, reply!)).toBe(1);
    }
  });

  for (const fault of ['timeoutAfterCommit', 'errorAfterCommit', 'resetAfterCommit'] as const)
    it(`I1 — ${fault} on the comment: found among the post's replies → sent; one comment, one attempt`, async () => {
      const account = await sandbox.connectAccount('mastodon');
      const { of, comment } = await postWithComment([account], fault);
      const [post, reply] = of(account) as [string, string];
      await holdBack(reply);
      await publish();
      expect(await statuses([post, reply])).toEqual(['sent', 'scheduled']);
      await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', [fault]: 1 });
      await dueNow(reply);
      await publish(CALL_TIMEOUT_MS);
      expect((await state(reply)).status).toBe('ambiguous');
      await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
      await dueNow(reply); // the tests' reconciler reads at once
      await reconcile();
      const postId = (await state(post)).externalId!;
      const replies = await repliesTo(account, postId);
      expect(replies.map((r) => r.text)).toEqual([comment]);
      expect(await state(reply)).toMatchObject({ status: 'sent', externalId: replies[0]!.id });
      await publish();
      expect(await repliesTo(account, postId)).toHaveLength(1);
      expect(await attemptCount(db, reply)).toBe(1);
    });

  it('I1 — the post itself times out after commit: found by the reconciler, then its comment goes out once', async () => {
    const account = await sandbox.connectAccount('x', undefined);
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe', timeoutAfterCommit: 1 });
    const { of, comment } = await postWithComment([account], 'post-ambiguous');
    const [post, reply] = of(account) as [string, string];
    await publish(CALL_TIMEOUT_MS);
    expect(await statuses([post, reply])).toEqual(['ambiguous', 'scheduled']);
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe' });
    await publish();
    expect((await state(reply)).status).toBe('scheduled'); // never claimed while its post is unknown
    await dueNow(post);
    await reconcile();
    expect((await state(post)).status).toBe('sent');
    await publish();
    await publish();
    const replies = await repliesTo(account, (await state(post)).externalId!);
    expect(replies.map((r) => r.text)).toEqual([comment]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2);
  });
});

describe('first comments — never under a post that failed or is in review', () => {
  it('I2 — the post fails (X refuses its text): the comment fails with the reason and is never published', async () => {
    const account = await sandbox.connectAccount('x');
    const { postId, of, comment } = await postWithComment([account], 'refused');
    // X refuses more than 280 characters with a 400: a definite failure of the post (written past the create check).
    await db.execute(sql`update posts set text = repeat('x', 300) where id = ${postId}`);
    const [post, reply] = of(account) as [string, string];
    await publish();
    await publish();
    expect(await statuses([post, reply])).toEqual(['failed', 'failed']);
    expect(await lastReason(reply)).toBe(
      'Not published: part 1 of the thread failed, so this part has nothing to reply to',
    );
    expect(await attemptCount(db, reply)).toBe(0);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, comment)).toBe(0);
  });

  async function postInReview(faults: Partial<FaultSettings>, label: string) {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe', ...faults });
    const created = await postWithComment([account], label);
    const [post, reply] = created.of(account) as [string, string];
    await publish(CALL_TIMEOUT_MS);
    expect((await state(post)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe' });
    // The same words, a little rewritten, are on the account: only similar, so the post goes to review.
    const similar = await account.client.publish({
      text: `${created.text}!`,
      kind: 'post',
      idempotencyKey: randomUUID(),
      timeoutMs: 3_000,
    });
    expect(similar.outcome).toBe('sent');
    await dueNow(post);
    await reconcile();
    await reconcile();
    expect((await state(post)).status).toBe('needs_review');
    await publish();
    await publish();
    expect((await state(reply)).status).toBe('scheduled');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, created.comment)).toBe(0);
    return { ...created, account, post, reply, similarId: similar.externalId! };
  }

  it('I2 — the post waits in review: no comment meanwhile; an admin says it is live → the comment goes under it, once', async () => {
    const { account, post, reply, comment, similarId } = await postInReview({ timeoutBeforeCommit: 1 }, 'review-live');
    const admin = await makeUser(db);
    await resolveReviewItem(db, {
      workspaceId: account.workspaceId,
      deliveryId: post,
      actorUserId: admin.id,
      resolution: { action: 'live', externalId: similarId, url: null },
    });
    await publish();
    await publish();
    expect(await statuses([post, reply])).toEqual(['sent', 'sent']);
    expect((await repliesTo(account, similarId)).map((r) => r.text)).toEqual([comment]);
  });

  it('I2 — the post waits in review and an admin cancels it: the comment is canceled, never published', async () => {
    const { account, post, reply, comment } = await postInReview({ timeoutBeforeCommit: 1 }, 'review-cancel');
    const admin = await makeUser(db);
    await resolveReviewItem(db, {
      workspaceId: account.workspaceId,
      deliveryId: post,
      actorUserId: admin.id,
      resolution: { action: 'cancel' },
    });
    await publish();
    expect(await statuses([post, reply])).toEqual(['canceled', 'canceled']);
    expect(await lastReason(reply)).toBe('Not published: part 1 of the thread was canceled');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, comment)).toBe(0);
    const sent = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(and(eq(deliveries.id, reply), eq(deliveries.status, 'sent')));
    expect(sent[0]!.n).toBe(0);
  });
});
