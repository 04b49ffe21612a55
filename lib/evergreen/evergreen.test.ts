import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { cancelScheduledDeliveries } from '@/db/queries/deliveries';
import { addQueueItem, createQueue, setItemSkipNext, setQueuePaused } from '@/db/queries/evergreen';
import { putPostingSchedule } from '@/db/queries/slots';
import { evergreenFires, evergreenQueues, posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { runEvergreenQueues, turnKey } from './run';

// Evergreen queues (docs/content.md#evergreen-queues) on real Postgres with real parallel connections: each item's
// turn in a cycle is one row (evergreen_fires_item_cycle_uq) taken before its post, whose key is the turn's; two
// schedulers racing, and a scheduler that stopped between its turn and its post, make each item's post once per cycle.

const { db } = await createTestDatabase({ max: 20 });
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
// Four slots a day, every day: a queue always finds a free one.
const SLOTS = WEEK.flatMap((weekday) => ['09:00', '12:00', '15:00', '18:00'].map((time) => ({ weekday, time })));

let workspaceId: string;
let x: Awaited<ReturnType<typeof makeAccount>>;
let mastodon: Awaited<ReturnType<typeof makeAccount>>;
beforeEach(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  x = await makeAccount(db, workspaceId, { provider: 'x', handle: '@brand' });
  mastodon = await makeAccount(db, workspaceId, { provider: 'mastodon', handle: '@brand@social.test' });
  for (const a of [x, mastodon])
    await putPostingSchedule(db, { workspaceId, accountId: a.id, timeZone: 'UTC', slots: SLOTS });
});

const pass = (now = new Date()) =>
  runEvergreenQueues(db, { batchSize: 10, leaseMs: 30_000, idleMs: 0, now: () => now });
/** Two schedulers at once, each on its own connection, as two worker processes would run them. */
const racingPasses = (now?: Date) => Promise.all([pass(now), pass(now)]);
/** The queue is due again at once (a pass sets its next look a minute on). */
const dueAgain = (queueId: string) =>
  db
    .update(evergreenQueues)
    .set({ nextRunAt: new Date(0), leaseExpiresAt: null })
    .where(eq(evergreenQueues.id, queueId));
const queuePosts = async () =>
  db
    .select({ id: posts.id, text: posts.text, key: posts.idempotencyKey, at: posts.scheduledAt })
    .from(posts)
    .where(and(eq(posts.workspaceId, workspaceId), sql`${posts.idempotencyKey} like 'evergreen:%'`))
    .orderBy(asc(posts.createdAt));
/** The queue's post went out (or was canceled): it is no longer on its way, so the next turn may come. */
const settle = async (postId: string) => cancelScheduledDeliveries(db, { workspaceId, postId, actor: 'test' });
const turns = async (queueId: string) =>
  db
    .select({
      itemId: evergreenFires.itemId,
      cycle: evergreenFires.cycle,
      postId: evergreenFires.postId,
      skipped: evergreenFires.skipped,
    })
    .from(evergreenFires)
    .where(eq(evergreenFires.queueId, queueId));

async function makeQueue(texts: { text: string; variants?: string[] }[], minGapDays = 0) {
  const queue = (await createQueue(db, {
    workspaceId,
    name: `evergreen ${randomUUID().slice(0, 6)}`,
    accountIds: [x.id, mastodon.id],
    minGapDays,
  }))!;
  const items: string[] = [];
  for (const t of texts)
    items.push((await addQueueItem(db, { workspaceId, queueId: queue.id, text: t.text, variants: t.variants ?? [] }))!);
  return { queue, items };
}

describe('evergreen queues — each item once per cycle', () => {
  it('I3 — two racing schedulers and a restart, over two cycles: one post per item and cycle, in order', async () => {
    const { queue, items } = await makeQueue([
      { text: 'Evergreen A', variants: ['Evergreen A, again'] },
      { text: 'Evergreen B' },
      { text: 'Evergreen C' },
    ]);
    for (let turn = 0; turn < 6; turn++) {
      if (turn === 4) {
        // A scheduler took item B's turn of cycle 2 and stopped before making its post (a restart).
        await db.insert(evergreenFires).values({ queueId: queue.id, itemId: items[1]!, cycle: 2 });
      }
      await racingPasses();
      await dueAgain(queue.id);
      await racingPasses(); // nothing more while its post is on its way
      const made = await queuePosts();
      expect(made, `turn ${turn + 1}`).toHaveLength(turn + 1);
      await settle(made.at(-1)!.id);
      await dueAgain(queue.id);
    }
    const made = await queuePosts();
    expect(made.map((p) => p.text)).toEqual([
      'Evergreen A',
      'Evergreen B',
      'Evergreen C',
      'Evergreen A',
      'Evergreen B',
      'Evergreen C',
    ]);
    expect(made.map((p) => p.key)).toEqual([1, 2].flatMap((cycle) => items.map((item) => turnKey(item, cycle))));
    const taken = await turns(queue.id);
    expect(taken).toHaveLength(6);
    expect(new Set(taken.map((t) => `${t.itemId}:${t.cycle}`)).size).toBe(6);
    expect(taken.every((t) => t.postId && !t.skipped)).toBe(true);
    // X refuses identical text: cycle 2 gives it the item's variant; Mastodon gets the text itself.
    const variantRows = await db.execute<{ account_id: string; text: string }>(sql`
      select account_id, text from post_variants where post_id = ${made[3]!.id}`);
    expect([...variantRows].map((v) => [v.account_id, v.text])).toEqual([[x.id, 'Evergreen A, again']]);
  });

  it('twenty racing passes on one due queue make one post', async () => {
    const { queue } = await makeQueue([{ text: 'Only once' }, { text: 'Then this' }]);
    await Promise.all(Array.from({ length: 20 }, () => pass()));
    expect(await queuePosts()).toHaveLength(1);
    expect(await turns(queue.id)).toHaveLength(1);
  });
});

describe('evergreen queues — pause, skip next, minimum gap', () => {
  it('a paused queue posts nothing; "skip next" passes an item over once, recorded as skipped, then clears', async () => {
    const { queue, items } = await makeQueue([{ text: 'One' }, { text: 'Two' }, { text: 'Three' }]);
    await setQueuePaused(db, { workspaceId, queueId: queue.id, paused: true });
    await pass();
    expect(await queuePosts()).toHaveLength(0);
    await setQueuePaused(db, { workspaceId, queueId: queue.id, paused: false });
    await setItemSkipNext(db, { workspaceId, itemId: items[0]!, skip: true });
    await pass();
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Two']);
    expect((await turns(queue.id)).find((t) => t.itemId === items[0])).toMatchObject({
      cycle: 1,
      skipped: true,
      postId: null,
    });
    const [item] = await db.execute<{ skip_next: boolean }>(
      sql`select skip_next from evergreen_items where id = ${items[0]!}`,
    );
    expect(item!.skip_next).toBe(false);
  });

  it('an item waits its minimum gap before it repeats; the next cycle begins once the gap has passed', async () => {
    const { queue } = await makeQueue([{ text: 'Gap A' }, { text: 'Gap B' }], 7);
    for (let i = 0; i < 2; i++) {
      await pass();
      await settle((await queuePosts()).at(-1)!.id);
      await dueAgain(queue.id);
    }
    expect(await queuePosts()).toHaveLength(2);
    await pass(new Date(Date.now() + 3 * 86_400_000)); // cycle 2 begins, but A posted 3 days ago: it waits
    expect(await queuePosts()).toHaveLength(2);
    await dueAgain(queue.id);
    await pass(new Date(Date.now() + 8 * 86_400_000));
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Gap A', 'Gap B', 'Gap A']);
  });
});
