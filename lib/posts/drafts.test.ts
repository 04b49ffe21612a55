import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markMissedDeliveries } from '@/db/queries/deliveries';
import { attempts, claims, deliveries, deliveryEvents } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { cancelPost } from './cancel';
import { createPost } from './create';
import { editPost } from './edit';
import { createPostRequestSchema } from './schemas';

const sandbox = await startTestSandbox();
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url));
const context = (workspaceId: string) => ({
  workspaceId,
  source: 'api' as const,
  idempotencyKey: randomUUID(),
  actor: 'test',
});

async function draftOn(platform: 'x' | 'mastodon', body: Record<string, unknown> = {}) {
  const account = await sandbox.connectAccount(platform);
  const text = sandbox.uniqueText('draft');
  const created = await createPost(
    db,
    createPostRequestSchema.parse({ text, accountIds: [account.productAccountId], status: 'draft', ...body }),
    context(account.workspaceId),
  );
  if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
  return { account, text, postId: created.postId, body: JSON.parse(created.stored.body) };
}
const deliveriesOf = (postId: string) =>
  db.select().from(deliveries).where(eq(deliveries.postId, postId)).orderBy(asc(deliveries.id));

describe('drafts: saved without scheduling, never published until scheduled', () => {
  it('a draft never publishes, even when publishers run after its planned time', async () => {
    const { account, text, postId, body } = await draftOn('x');
    expect(body).toMatchObject({ status: 'draft', deliveries: [{ status: 'draft' }] });
    const [draft] = await deliveriesOf(postId);
    expect(draft!.dueAt.getTime()).toBeLessThanOrEqual(Date.now()); // its planned time has come
    for (let i = 0; i < 3; i++) await Promise.all([publish(), publish(), markMissedDeliveries(db)]);
    const [after] = await deliveriesOf(postId);
    expect(after!.status).toBe('draft');
    expect(await db.select().from(claims).where(eq(claims.deliveryId, draft!.id))).toEqual([]);
    expect(await db.select().from(attempts).where(eq(attempts.deliveryId, draft!.id))).toEqual([]);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);
  });

  it('scheduling a draft (a keyed PATCH) publishes it once; replaying that key changes nothing', async () => {
    const { account, text, postId } = await draftOn('mastodon');
    const key = randomUUID();
    const now = new Date().toISOString();
    const schedule = () =>
      editPost(db, {
        workspaceId: account.workspaceId,
        postId,
        changes: { status: 'scheduled', scheduledAt: now },
        actor: 'test',
        idempotencyKey: key,
      });
    // A double click: two requests with the one key; one schedules, the other is its replay or told to wait.
    const both = await Promise.all([schedule(), schedule()]);
    const executed = both.filter((r) => r.kind === 'ok' && !r.replayed);
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ post: { status: 'scheduled' } });
    expect(both.every((r) => r.kind === 'ok' || r.kind === 'in_flight')).toBe(true);
    await publish();
    await publish();
    expect((await deliveriesOf(postId)).map((d) => d.status)).toEqual(['sent']);
    expect(await schedule()).toMatchObject({ kind: 'ok', replayed: true, post: { status: 'scheduled' } });
    await publish();
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    const history = await db
      .select({ from: deliveryEvents.fromStatus, to: deliveryEvents.toStatus })
      .from(deliveryEvents)
      .where(
        inArray(
          deliveryEvents.deliveryId,
          (await deliveriesOf(postId)).map((d) => d.id),
        ),
      )
      .orderBy(asc(deliveryEvents.id));
    expect(history).toEqual([
      { from: null, to: 'draft' },
      { from: 'draft', to: 'scheduled' },
      { from: 'scheduled', to: 'publishing' },
      { from: 'publishing', to: 'sent' },
    ]);
    // Once sent, it is no draft to schedule again.
    expect(
      await editPost(db, {
        workspaceId: account.workspaceId,
        postId,
        changes: { status: 'scheduled' },
        actor: 'test',
        idempotencyKey: randomUUID(),
      }),
    ).toMatchObject({ kind: 'conflict', reason: 'already_sent' });
  });

  it('editing a draft keeps it a draft (a new planned time is no schedule); a passed planned time needs a time', async () => {
    const { account, postId } = await draftOn('x');
    const planned = new Date(Date.now() + 3_600_000).toISOString();
    const edit = (changes: Record<string, unknown>) =>
      editPost(db, { workspaceId: account.workspaceId, postId, changes, actor: 'test', idempotencyKey: randomUUID() });
    expect(await edit({ text: 'Reworded', scheduledAt: planned })).toMatchObject({
      kind: 'ok',
      post: { status: 'draft', text: 'Reworded', scheduledAt: planned },
    });
    expect((await deliveriesOf(postId))[0]!.status).toBe('draft');
    expect(await edit({ slot: 'next' })).toMatchObject({ kind: 'invalid', errors: { slot: expect.any(Array) } });

    const stale = await draftOn('x'); // planned at the moment it was saved
    await db
      .update(deliveries)
      .set({ dueAt: new Date(0) })
      .where(eq(deliveries.postId, stale.postId));
    const past = await editPost(db, {
      workspaceId: stale.account.workspaceId,
      postId: stale.postId,
      changes: { status: 'scheduled' },
      actor: 'test',
      now: new Date(Date.now() + 120_000),
    });
    expect(past).toMatchObject({ kind: 'invalid', errors: { scheduledAt: [expect.stringMatching(/planned time/)] } });
    expect((await deliveriesOf(stale.postId))[0]!.status).toBe('draft');
  });

  it('a draft can be discarded (draft → canceled), and is then nothing to schedule', async () => {
    const { account, postId } = await draftOn('x');
    const discarded = await cancelPost(db, { workspaceId: account.workspaceId, postId, actor: 'test' });
    expect(discarded).toMatchObject({ kind: 'ok', post: { status: 'canceled' } });
    const [row] = await deliveriesOf(postId);
    const [event] = await db
      .select()
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, row!.id))
      .orderBy(asc(deliveryEvents.id))
      .offset(1);
    expect(event).toMatchObject({ fromStatus: 'draft', toStatus: 'canceled', reason: 'draft discarded' });
    expect(
      await editPost(db, {
        workspaceId: account.workspaceId,
        postId,
        changes: { status: 'scheduled' },
        actor: 'test',
      }),
    ).toMatchObject({ kind: 'conflict', reason: 'not_editable' });
  });

  it('a draft takes no slot when saved', () => {
    const parsed = createPostRequestSchema.safeParse({
      text: 'x',
      accountIds: [randomUUID()],
      status: 'draft',
      slot: 'next',
    });
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['slot']);
  });
});
