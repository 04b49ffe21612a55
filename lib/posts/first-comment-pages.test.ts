import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries } from '@/db/schema';
import { attemptCount, deliveryStates, testPublisherOptions } from '@/testing/publisher';
import { reconcileDecisions, testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import type { FaultSettings } from '@/sandbox/store/types';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { createPost } from './create';
import { createPostRequestSchema } from './schemas';

// First comments on LinkedIn pages and Facebook Pages end to end (DESIGN I1, I2; docs/content.md#first-comments): a
// post made by the use case with `firstComment`, published and reconciled by the real publisher and reconciler
// against the sandbox (Postgres store, real sockets). The comment is the post's part 1, the account's own comment on
// it: claimed only once the post is `sent`, never repeated; an unknown outcome is settled by that post's comments
// (same → sent, similar → review, absent twice → released and made once). Copies are counted on the platform's records.

const CALL_TIMEOUT_MS = 1_000; // below the sandbox's 2 s hang
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

const publish = (callTimeoutMs = 4_000) =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs }));
const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
const decisions = (id: string) => reconcileDecisions(db, id);

const NETWORKS = [
  {
    name: 'linkedin' as const,
    label: 'LinkedIn page',
    postIdOf: (externalId: string) => /^urn:li:share:(\d+)$/.exec(externalId)![1]!,
  },
  { name: 'facebook' as const, label: 'Facebook Page', postIdOf: (externalId: string) => externalId.split('_')[1]! },
];

/** A post with a first comment, due now, on one account: its post and comment deliveries. */
async function postWithComment(account: Account, label: string) {
  const [text, comment] = [sandbox.uniqueText(`${label} post`), sandbox.uniqueText(`${label} comment`)];
  const created = await createPost(
    db,
    createPostRequestSchema.parse({ text, firstComment: comment, accountIds: [account.productAccountId] }),
    { workspaceId: account.workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
  );
  if (created.kind !== 'ok') throw new Error(`not created: ${JSON.stringify(created)}`);
  const [post, reply] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(eq(deliveries.postId, created.postId))
    .orderBy(asc(deliveries.part));
  return { post: post!.id, reply: reply!.id, text, comment };
}

describe.each(NETWORKS)('first comments on a $label: after the post, once', (network) => {
  const commentsOn = async (account: Account, externalId: string) =>
    (await sandbox.allPosts(account.sandboxAccount.id)).filter(
      (p) => p.inReplyToId === network.postIdOf(externalId) && !p.deletedAt,
    );

  /** The post is out; its first comment is due, and made ambiguous by `faults`; then the platform answers normally. */
  async function ambiguousComment(faults: Partial<FaultSettings>) {
    const account = await sandbox.connectAccount(network.name);
    const created = await postWithComment(account, 'ambiguous');
    // The comment is held back an hour so that the faults meet it alone (a pass otherwise sends both in turn).
    await db
      .update(deliveries)
      .set({ dueAt: new Date(Date.now() + 3_600_000) })
      .where(eq(deliveries.id, created.reply));
    await publish();
    expect([(await status(created.post)).status, (await status(created.reply)).status]).toEqual(['sent', 'scheduled']);
    await sandbox.setFaults(account.sandboxAccount.id, faults);
    await dueNow(created.reply);
    await publish(CALL_TIMEOUT_MS);
    expect((await status(created.reply)).status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(created.reply); // the tests' reconciler reads at once
    return { ...created, account, postId: (await status(created.post)).externalId! };
  }

  it('I1 — the post and its first comment go out in one pass: the comment once, the account’s own, on that post', async () => {
    const account = await sandbox.connectAccount(network.name);
    const { post, reply, text, comment } = await postWithComment(account, 'both');
    const summary = await publish();
    expect(summary.sent).toBe(2);
    await publish();
    const [sentPost, sentComment] = [await status(post), await status(reply)];
    expect([sentPost.status, sentComment.status]).toEqual(['sent', 'sent']);
    const comments = await commentsOn(account, sentPost.externalId!);
    expect(comments.map((c) => [c.text, c.accountId])).toEqual([[comment, account.sandboxAccount.id]]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(2); // the post and its comment, nothing else
    expect(await attemptCount(db, reply)).toBe(1);
  });

  for (const fault of ['timeoutAfterCommit', 'errorAfterCommit', 'resetAfterCommit'] as const)
    it(`I1 — ${fault} on the comment: the post's comments show it → sent with its id; one comment, one attempt`, async () => {
      const { reply, postId, account, comment } = await ambiguousComment({ [fault]: 1 });
      await reconcile();
      expect(await decisions(reply)).toEqual(['found']);
      const found = await status(reply);
      expect(found.status).toBe('sent');
      await publish();
      const comments = await commentsOn(account, postId);
      expect(comments.map((c) => c.text)).toEqual([comment]);
      expect(found.externalId).toContain(comments[0]!.id);
      expect(await attemptCount(db, reply)).toBe(1);
    });

  it('I1 — timeoutBeforeCommit on the comment: absent from the post’s comments twice → released → one comment', async () => {
    const { reply, postId, account, comment } = await ambiguousComment({ timeoutBeforeCommit: 1 });
    await reconcile();
    await reconcile();
    expect(await decisions(reply)).toEqual(['not_found_recheck', 'released']);
    expect(await commentsOn(account, postId)).toEqual([]);
    await dueNow(reply);
    await publish();
    expect((await status(reply)).status).toBe('sent');
    expect((await commentsOn(account, postId)).map((c) => c.text)).toEqual([comment]);
    expect(await attemptCount(db, reply)).toBe(2);
  });

  it('I1 — a similar comment of the account’s on the post blocks a resend: needs_review with it as evidence', async () => {
    const { reply, postId, account, comment } = await ambiguousComment({ timeoutBeforeCommit: 1 });
    // The same words, rewritten a little (as a person editing it on the platform would leave them).
    await sandbox.store.insertPost({
      account: account.sandboxAccount,
      kind: 'reply',
      text: `${comment}!`,
      inReplyToId: network.postIdOf(postId),
    });
    await reconcile();
    expect(await decisions(reply)).toEqual(['needs_review']);
    expect((await status(reply)).status).toBe('needs_review');
    await dueNow(reply);
    await publish();
    expect(await commentsOn(account, postId)).toHaveLength(1);
    expect(await attemptCount(db, reply)).toBe(1);
  });
});

describe('first comments on a LinkedIn member profile', () => {
  it('I1 — a lost comment goes to review (a member’s comments cannot be listed), never a second comment', async () => {
    const account = await sandbox.connectAccount('linkedin', undefined, { linkedinAuthor: 'person' });
    const created = await postWithComment(account, 'member');
    await db
      .update(deliveries)
      .set({ dueAt: new Date(Date.now() + 3_600_000) })
      .where(eq(deliveries.id, created.reply));
    await publish();
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutBeforeCommit: 1 });
    await dueNow(created.reply);
    await publish(CALL_TIMEOUT_MS);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await dueNow(created.reply);
    await reconcile();
    expect(await decisions(created.reply)).toEqual(['needs_review']);
    await dueNow(created.reply);
    await publish();
    const comments = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.kind === 'reply');
    expect(comments).toEqual([]);
    expect(await attemptCount(db, created.reply)).toBe(1);
  });
});
