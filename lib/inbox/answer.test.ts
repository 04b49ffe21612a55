import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, inboxAnswers, inboxItems, posts } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { storeInboxItem } from '@/testing/inbox';
import { testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { answerInboxItem, type AnswerContext } from './answer';

// Answering exactly once (docs/inbox.md#answering): teammates racing, a double click, a resubmission and "send another
// reply anyway" against real Postgres with parallel connections; the replies published by the real publisher to the
// sandbox, counted on the platform's own records.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db, store } = sandbox;
const CALL_TIMEOUT_MS = 400;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));

/** An X account, and a person's mention of it on the sandbox, stored as an inbox item. */
async function mentionedAccount(provider: 'x' | 'mastodon' = 'x') {
  const account = await sandbox.connectAccount(provider);
  const said = await sendInbound(store, account.sandboxAccount, {
    kind: 'mention',
    text: sandbox.uniqueText('@you hi'),
  });
  const item = await storeInboxItem(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    provider,
    item: { platformId: said.id, authorHandle: '@ana_rivera' },
  });
  return { account, item };
}

const context = (workspaceId: string, name: string, key = randomUUID()): AnswerContext => ({
  workspaceId,
  idempotencyKey: key,
  actorName: name,
  actor: `user:${name}`,
  source: 'form',
});

/** Our replies to the item on the platform's own records. */
const repliesOnPlatform = async (sandboxAccountId: string, platformId: string) =>
  (await sandbox.allPosts(sandboxAccountId)).filter((p) => p.inReplyToId === platformId && !p.deletedAt);

describe('answering an inbox item (docs/inbox.md#answering)', () => {
  it('ten teammates sending their first answer at once: one answer, one reply on the platform; the others are told who answered and what', async () => {
    const { account, item } = await mentionedAccount();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        answerInboxItem(
          db,
          item.id,
          { text: `Answer from teammate ${i}`, after: 0 },
          context(account.workspaceId, `Teammate ${i}`),
        ),
      ),
    );
    const won = results.filter((r) => r.kind === 'ok');
    expect(won).toHaveLength(1);
    const winner = JSON.parse((won[0] as { stored: { body: string } }).stored.body) as {
      answer: { by: string; text: string };
    };
    const refused = results.filter((r) => r.kind === 'already_answered');
    expect(refused).toHaveLength(9);
    for (const r of refused)
      expect(r).toMatchObject({
        answer: { actorName: winner.answer.by, text: winner.answer.text, number: 1 },
        answers: 1,
      });
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, item.id))).toHaveLength(1);
    const replyPosts = await db.select().from(posts).where(eq(posts.inReplyTo, item.platformId));
    expect(replyPosts).toHaveLength(1);
    const [stored] = await db.select().from(inboxItems).where(eq(inboxItems.id, item.id));
    expect(stored).toMatchObject({ answerSource: 'semel' });
    expect(stored!.answeredAt).not.toBeNull();

    await publish();
    const replies = await repliesOnPlatform(account.sandboxAccount.id, item.platformId);
    expect(replies.map((r) => r.text)).toEqual([winner.answer.text]);
  });

  it('a double click or a retry with one key: one answer, the same stored answer replayed', async () => {
    const { account, item } = await mentionedAccount();
    const key = randomUUID();
    const send = () =>
      answerInboxItem(db, item.id, { text: 'Thanks, on its way!', after: 0 }, context(account.workspaceId, 'Ana', key));
    const first = await Promise.all(Array.from({ length: 8 }, send));
    expect(first.filter((r) => r.kind === 'ok' && !r.replayed)).toHaveLength(1);
    // The others waited for it (409 in the API) or replayed it; none was refused as "already answered" by Ana herself.
    for (const r of first) expect(['ok', 'in_flight']).toContain(r.kind);
    const again = await send();
    expect(again).toMatchObject({ kind: 'ok', replayed: true });
    const original = first.find((r) => r.kind === 'ok' && !r.replayed) as { stored: { body: string } };
    expect((again as { stored: { body: string } }).stored.body).toBe(original.stored.body);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, item.platformId))).toHaveLength(1);
  });

  it('a resubmission with a new key (the form reloaded without its key) is refused: the item has its answer', async () => {
    const { account, item } = await mentionedAccount();
    const first = await answerInboxItem(
      db,
      item.id,
      { text: 'Sorted, thanks!', after: 0 },
      context(account.workspaceId, 'Ana'),
    );
    expect(first.kind).toBe('ok');
    const resubmitted = await answerInboxItem(
      db,
      item.id,
      { text: 'Sorted, thanks!', after: 0 },
      context(account.workspaceId, 'Ana'),
    );
    expect(resubmitted).toMatchObject({ kind: 'already_answered', answer: { actorName: 'Ana', number: 1 } });
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, item.platformId))).toHaveLength(1);
  });

  it('"send another reply anyway" is a new intent: a second answer; two teammates adding it at once make one', async () => {
    const { account, item } = await mentionedAccount();
    await answerInboxItem(db, item.id, { text: 'First answer', after: 0 }, context(account.workspaceId, 'Ana'));
    const another = await Promise.all([
      answerInboxItem(db, item.id, { text: 'One more thing from Ben', after: 1 }, context(account.workspaceId, 'Ben')),
      answerInboxItem(
        db,
        item.id,
        { text: 'One more thing from Cleo', after: 1 },
        context(account.workspaceId, 'Cleo'),
      ),
    ]);
    expect(another.filter((r) => r.kind === 'ok')).toHaveLength(1);
    expect(another.filter((r) => r.kind === 'already_answered')).toHaveLength(1);
    // A number the member cannot have seen is a field error, nothing written.
    const stale = await answerInboxItem(db, item.id, { text: 'Third', after: 5 }, context(account.workspaceId, 'Dee'));
    expect(stale).toMatchObject({ kind: 'invalid', errors: { after: [expect.stringContaining('2 answers')] } });
    await publish();
    expect(await repliesOnPlatform(account.sandboxAccount.id, item.platformId)).toHaveLength(2);
  });

  it('another workspace cannot answer the item (I6): not found, nothing written', async () => {
    const { item } = await mentionedAccount();
    const other = await sandbox.connectAccount('x');
    const result = await answerInboxItem(db, item.id, { text: 'Hi', after: 0 }, context(other.workspaceId, 'Eve'));
    expect(result).toEqual({ kind: 'not_found' });
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, item.id))).toHaveLength(0);
  });

  it('a DM is answered by a DM to its author; a network Semel sends no replies to says so, nothing written', async () => {
    const account = await sandbox.connectAccount('x');
    const said = await sendInbound(store, account.sandboxAccount, { kind: 'dm', text: 'Hi, a question' });
    const dm = await storeInboxItem(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      stream: 'dms',
      item: { platformId: said.id, kind: 'dm', authorPlatformId: '777000111', conversationId: 'c' },
    });
    const answered = await answerInboxItem(
      db,
      dm.id,
      { text: 'Happy to help', after: 0 },
      context(account.workspaceId, 'Ana'),
    );
    expect(answered.kind).toBe('ok');
    const [post] = await db.select().from(posts).where(eq(posts.recipient, '777000111'));
    expect(post).toMatchObject({ kind: 'dm', text: 'Happy to help' });

    const page = await sandbox.connectAccount('linkedin');
    const comment = await storeInboxItem(db, {
      workspaceId: page.workspaceId,
      accountId: page.productAccountId,
      provider: 'linkedin',
      stream: 'comments',
      item: { kind: 'comment' },
    });
    const refused = await answerInboxItem(
      db,
      comment.id,
      { text: 'Thanks', after: 0 },
      context(page.workspaceId, 'Ana'),
    );
    expect(refused).toMatchObject({ kind: 'not_answerable', reason: expect.stringContaining('on LinkedIn') });
  });

  it('an answer whose call timed out after the platform stored it is settled by reading the thread: sent, never resent', async () => {
    const { account, item } = await mentionedAccount();
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const result = await answerInboxItem(
      db,
      item.id,
      { text: 'Lost answer, found again', after: 0 },
      context(account.workspaceId, 'Ana'),
    );
    expect(result.kind).toBe('ok');
    await publish();
    const [reply] = await db
      .select({ id: deliveries.id, status: deliveries.status })
      .from(deliveries)
      .innerJoin(posts, eq(posts.id, deliveries.postId))
      .where(eq(posts.inReplyTo, item.platformId));
    expect(reply!.status).toBe('ambiguous');
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await db.execute(sql`update deliveries set due_at = now() where id = ${reply!.id}`);
    await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    const [settled] = await db.select().from(deliveries).where(eq(deliveries.id, reply!.id));
    expect(settled!.status).toBe('sent');
    await publish();
    expect(await repliesOnPlatform(account.sandboxAccount.id, item.platformId)).toHaveLength(1);
  });
});
