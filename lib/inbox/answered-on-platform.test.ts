import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recordOwnMessages } from '@/db/queries/inbox/items';
import { inboxAnswers, inboxItems, posts } from '@/db/schema';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { storeInboxItem, testInboxOptions } from '@/testing/inbox';
import { startTestSandbox } from '@/testing/sandbox';
import { answerInboxItem, type AnswerContext } from './answer';
import { readInbox } from './read-inbox';

// One answer per item counts the answer the account gave on the platform itself (docs/inbox.md#answering): once the
// inbox job has seen it, a first answer from Semel is a second answer, refused naming it, unless the member sends
// another anyway; and the job marking it and a first answer from Semel at the same moment never both win.

const sandbox = await startTestSandbox();
const { db, store } = sandbox;

const context = (workspaceId: string, name: string, key = randomUUID()): AnswerContext => ({
  workspaceId,
  idempotencyKey: key,
  actorName: name,
  actor: `user:${name}`,
  source: 'form',
});
const itemRow = async (id: string) => (await db.select().from(inboxItems).where(eq(inboxItems.id, id)))[0]!;
const answersOf = (id: string) => db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, id));

describe('an item answered on the platform by the account itself', () => {
  it('a first answer from Semel is refused naming the platform’s answer; nothing written; "send another anyway" is place 2', async () => {
    const a = await sandbox.connectAccount('x');
    const said = await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: sandbox.uniqueText('@you hi') });
    // The account answers it from another app; the inbox job reads both and marks the item answered there.
    const elsewhere = await store.insertPost({
      account: a.sandboxAccount,
      kind: 'reply',
      text: sandbox.uniqueText('answered elsewhere'),
      inReplyToId: said.id,
    });
    await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
    const [item] = await db.select().from(inboxItems).where(eq(inboxItems.platformId, said.id));
    expect(item).toMatchObject({ answerSource: 'platform', platformAnswerId: elsewhere!.id });

    const refused = await answerInboxItem(db, item!.id, { text: 'Hi there', after: 0 }, context(a.workspaceId, 'Ana'));
    expect(refused).toMatchObject({
      kind: 'answered_on_platform',
      network: 'x',
      platformAnswerId: elsewhere!.id,
      platformAnswerText: elsewhere!.text,
      answers: 1,
    });
    expect(await answersOf(item!.id)).toHaveLength(0);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, said.id))).toHaveLength(0);

    // The member chooses to send another reply anyway, with the count the refusal gave.
    const another = await answerInboxItem(db, item!.id, { text: 'Hi again', after: 1 }, context(a.workspaceId, 'Ana'));
    expect(another.kind).toBe('ok');
    expect((await answersOf(item!.id)).map((r) => r.number)).toEqual([2]);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, said.id))).toHaveLength(1);
    expect(await itemRow(item!.id)).toMatchObject({ answerSource: 'platform' });
    // A teammate who still saw no answer is refused again (place 2 is Ana's now).
    const late = await answerInboxItem(db, item!.id, { text: 'Me too', after: 0 }, context(a.workspaceId, 'Ben'));
    expect(late).toMatchObject({ kind: 'answered_on_platform', answers: 2 });
    const stale = await answerInboxItem(db, item!.id, { text: 'Me too', after: 1 }, context(a.workspaceId, 'Ben'));
    expect(stale).toMatchObject({ kind: 'already_answered', answer: { actorName: 'Ana', number: 2 }, answers: 2 });
  });

  it('a Semel answer that failed, then an answer on the platform: the next one is refused all the same', async () => {
    const a = await sandbox.connectAccount('x');
    const item = await storeInboxItem(db, { workspaceId: a.workspaceId, accountId: a.productAccountId });
    const first = await answerInboxItem(db, item.id, { text: 'First', after: 0 }, context(a.workspaceId, 'Ana'));
    expect(first.kind).toBe('ok');
    // Its reply failed (the job reopens the item), then the account answered on the platform.
    await db.update(inboxItems).set({ answeredAt: null, answerSource: null }).where(eq(inboxItems.id, item.id));
    await recordOwnMessages(db, {
      accountId: a.productAccountId,
      messages: [{ platformId: 'own-1', inReplyTo: item.platformId, conversationId: null, createdAt: new Date() }],
    });
    const next = await answerInboxItem(db, item.id, { text: 'Again', after: 1 }, context(a.workspaceId, 'Ben'));
    expect(next).toMatchObject({ kind: 'answered_on_platform', platformAnswerId: 'own-1', answers: 2 });
    expect(await answersOf(item.id)).toHaveLength(1);
  });

  it('the job marking it answered on the platform and a first answer from Semel at once: never both', async () => {
    const a = await sandbox.connectAccount('x');
    for (let round = 0; round < 10; round++) {
      const item = await storeInboxItem(db, { workspaceId: a.workspaceId, accountId: a.productAccountId });
      const [answer, marked] = await Promise.all([
        answerInboxItem(db, item.id, { text: `Answer ${round}`, after: 0 }, context(a.workspaceId, 'Ana')),
        recordOwnMessages(db, {
          accountId: a.productAccountId,
          messages: [
            {
              platformId: `own-${randomUUID()}`,
              inReplyTo: item.platformId,
              conversationId: null,
              createdAt: new Date(),
            },
          ],
        }),
      ]);
      const row = await itemRow(item.id);
      const answers = await answersOf(item.id);
      if (answer.kind === 'ok') {
        expect(marked).toHaveLength(0);
        expect(row.answerSource).toBe('semel');
        expect(answers).toHaveLength(1);
      } else {
        expect(answer).toMatchObject({ kind: 'answered_on_platform', answers: 1 });
        expect(marked).toHaveLength(1);
        expect(row.answerSource).toBe('platform');
        expect(answers).toHaveLength(0);
      }
    }
  });
});
