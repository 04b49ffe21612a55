import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { putPostingSchedule } from '@/db/queries/slots';
import { claims, deliveries, postVariants, slotReservations } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { WEEKDAYS } from '@/lib/slots/schedule';
import { cancelPost } from './cancel';
import { createPost } from './create';
import { editPost } from './edit';
import { createPostRequestSchema } from './schemas';

// Threads (docs/architecture.md#threads) with the planning features (drafts, posting slots, per-account texts): a draft
// thread is never claimed until scheduled, then goes out part by part; a queued thread takes one slot per account at
// part 0's time; a thread takes no per-account texts (refused, 422), and a post's variant is what its account gets.

const sandbox = await startTestSandbox();
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url));
const context = (workspaceId: string) => ({
  workspaceId,
  source: 'api' as const,
  idempotencyKey: randomUUID(),
  actor: 'test',
});
const partsOf = (label: string) => {
  const tag = sandbox.uniqueText(label);
  return [1, 2, 3].map((k) => `${tag} ${k}/3`);
};
const deliveriesOf = (postId: string) =>
  db.select().from(deliveries).where(eq(deliveries.postId, postId)).orderBy(asc(deliveries.part));

async function createThread(workspaceId: string, accountIds: string[], texts: string[], extra = {}) {
  const created = await createPost(
    db,
    createPostRequestSchema.parse({ kind: 'thread', parts: texts.map((text) => ({ text })), accountIds, ...extra }),
    context(workspaceId),
  );
  if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
  return { postId: created.postId, body: JSON.parse(created.stored.body) };
}

describe('threads with drafts, posting slots and per-account texts', () => {
  it('a draft thread: every part is a draft, none is claimed; scheduling it sends the parts in order, each a reply', async () => {
    const account = await sandbox.connectAccount('x');
    const texts = partsOf('draft thread');
    const { postId, body } = await createThread(account.workspaceId, [account.productAccountId], texts, {
      status: 'draft',
    });
    expect(body).toMatchObject({ kind: 'thread', status: 'draft' });
    expect((await deliveriesOf(postId)).map((d) => [d.part, d.status])).toEqual([
      [0, 'draft'],
      [1, 'draft'],
      [2, 'draft'],
    ]);
    for (let i = 0; i < 2; i++) await publish();
    const ids = (await deliveriesOf(postId)).map((d) => d.id);
    for (const id of ids) expect(await db.select().from(claims).where(eq(claims.deliveryId, id))).toEqual([]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, texts[0]!)).toBe(0);

    const scheduled = await editPost(db, {
      workspaceId: account.workspaceId,
      postId,
      changes: { status: 'scheduled', scheduledAt: new Date().toISOString() },
      actor: 'test',
      idempotencyKey: randomUUID(),
    });
    expect(scheduled).toMatchObject({ kind: 'ok' });
    expect((await deliveriesOf(postId)).map((d) => d.status)).toEqual(['scheduled', 'scheduled', 'scheduled']);

    // Each part is claimed only once the one before it is sent (a pass may go on with the next part).
    for (let i = 0; i < 3; i++) await publish();
    const sent = await deliveriesOf(postId);
    expect(sent.map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
    const stored = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => texts.includes(p.text));
    const copies = texts.map((text) => stored.filter((p) => p.text === text));
    expect(copies.map((c) => c.length)).toEqual([1, 1, 1]);
    expect(copies[0]![0]!.inReplyToId ?? null).toBeNull();
    expect(copies[1]![0]!.inReplyToId).toBe(sent[0]!.externalId);
    expect(copies[2]![0]!.inReplyToId).toBe(sent[1]!.externalId);
  });

  it('a draft thread discarded: all its parts are canceled (draft → canceled)', async () => {
    const account = await sandbox.connectAccount('x');
    const { postId } = await createThread(account.workspaceId, [account.productAccountId], partsOf('discarded'), {
      status: 'draft',
    });
    const canceled = await cancelPost(db, { workspaceId: account.workspaceId, postId, actor: 'test' });
    expect(canceled).toMatchObject({ kind: 'ok' });
    expect((await deliveriesOf(postId)).map((d) => d.status)).toEqual(['canceled', 'canceled', 'canceled']);
  });

  it('slot "next": a thread takes one slot per account, at part 0 time for every part; canceling frees it', async () => {
    const account = await sandbox.connectAccount('x');
    const slots = WEEKDAYS.flatMap((weekday) =>
      Array.from({ length: 24 }, (_, h) => ({ weekday, time: `${String(h).padStart(2, '0')}:00` })),
    );
    await putPostingSchedule(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      timeZone: 'UTC',
      slots,
    });
    const { postId, body } = await createThread(account.workspaceId, [account.productAccountId], partsOf('queued'), {
      slot: 'next',
    });
    const rows = await deliveriesOf(postId);
    expect(rows).toHaveLength(3);
    for (const d of rows) expect(d.dueAt.toISOString()).toBe(body.scheduledAt);
    const reserved = await db.select().from(slotReservations).where(eq(slotReservations.postId, postId));
    expect(reserved.map((r) => r.slotAt.toISOString())).toEqual([body.scheduledAt]);

    // The next queued post (a plain one) takes the next slot, not the thread's.
    const next = await createPost(
      db,
      createPostRequestSchema.parse({
        text: sandbox.uniqueText('after'),
        accountIds: [account.productAccountId],
        slot: 'next',
      }),
      context(account.workspaceId),
    );
    if (next.kind !== 'ok') throw new Error(JSON.stringify(next));
    expect(Date.parse(JSON.parse(next.stored.body).scheduledAt)).toBeGreaterThan(Date.parse(body.scheduledAt));

    await cancelPost(db, { workspaceId: account.workspaceId, postId, actor: 'test' });
    expect(await db.select().from(slotReservations).where(eq(slotReservations.postId, postId))).toEqual([]);
  });

  it('a thread refuses per-account texts: on create (422 field error) and on edit', async () => {
    const account = await sandbox.connectAccount('x');
    const texts = partsOf('no variants');
    const parsed = createPostRequestSchema.safeParse({
      kind: 'thread',
      parts: texts.map((text) => ({ text })),
      accountIds: [account.productAccountId],
      variants: { [account.productAccountId]: { text: 'own text' } },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain('variants');

    const { postId } = await createThread(account.workspaceId, [account.productAccountId], texts, {
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const edited = await editPost(db, {
      workspaceId: account.workspaceId,
      postId,
      changes: { variants: { [account.productAccountId]: { text: 'own text' } } },
      actor: 'test',
    });
    expect(edited).toMatchObject({ kind: 'invalid', errors: { variants: [expect.stringMatching(/thread/)] } });
    expect(await db.select().from(postVariants).where(eq(postVariants.postId, postId))).toEqual([]);
  });

  it('a post (not a thread) publishes its account variant; the other account gets the post text', async () => {
    const x = await sandbox.connectAccount('x');
    const mastodon = await sandbox.connectAccount('mastodon', x.workspaceId);
    const text = sandbox.uniqueText('shared');
    const own = sandbox.uniqueText('own for mastodon');
    const created = await createPost(
      db,
      createPostRequestSchema.parse({
        text,
        accountIds: [x.productAccountId, mastodon.productAccountId],
        variants: { [mastodon.productAccountId]: { text: own } },
      }),
      context(x.workspaceId),
    );
    expect(created).toMatchObject({ kind: 'ok' });
    await publish();
    expect(await sandbox.copiesOfText(x.sandboxAccount.id, text)).toBe(1);
    expect(await sandbox.copiesOfText(mastodon.sandboxAccount.id, own)).toBe(1);
    expect(await sandbox.copiesOfText(mastodon.sandboxAccount.id, text)).toBe(0);
  });
});
