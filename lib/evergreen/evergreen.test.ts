import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { cancelScheduledDeliveries } from '@/db/queries/deliveries';
import {
  addQueueItem,
  createQueue,
  deleteQueueItem,
  listQueueItemsWithCounts,
  setItemSkipNext,
  setQueuePaused,
  updateQueueItem,
} from '@/db/queries/evergreen';
import { putPostingSchedule } from '@/db/queries/slots';
import { evergreenFires, evergreenQueues, posts, socialAccounts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { holdLock, untilBlocked } from '@/testing/race';
import { checkQueueItem } from './items';
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
const postsWithText = async (text: string) =>
  db
    .select({ id: posts.id, key: posts.idempotencyKey })
    .from(posts)
    .where(and(eq(posts.workspaceId, workspaceId), eq(posts.text, text)));
/** Cancels the statements blocked on a lock that start with `prefix`: their process stops right there. */
const cancelBlocked = async (prefix: string) =>
  [
    ...(await db.execute(sql`select pg_cancel_backend(pid) from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`${prefix}%`}`)),
  ].length;
/** The queue's post went out (or was canceled): it is no longer on its way, so the next turn may come. */
const settle = async (postId: string) => cancelScheduledDeliveries(db, { workspaceId, postId, actor: 'test' });
const turns = async (queueId: string) =>
  db
    .select({
      itemId: evergreenFires.itemId,
      cycle: evergreenFires.cycle,
      postId: evergreenFires.postId,
      skipped: evergreenFires.skipped,
      skipReason: evergreenFires.skipReason,
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

  it('I3 — a scheduler that stops once its post is made, its key pruned since: the turn and its post commit together, one post', async () => {
    const { queue, items } = await makeQueue([{ text: 'Made once, crash or not' }, { text: 'Next' }]);
    // A turn taken by a scheduler; its row is held, so the link from the turn to its post waits right there.
    const [turn] = await db
      .insert(evergreenFires)
      .values({ queueId: queue.id, itemId: items[0]!, cycle: 1 })
      .returning({ id: evergreenFires.id });
    const release = await holdLock(db, sql`select 1 from evergreen_fires where id = ${turn!.id} for update`);
    const passing = pass();
    await untilBlocked(db, 'update evergreen_fires');
    // The scheduler stops at that point (its statement is canceled, as a crash would end it), and the key's record is
    // pruned before the next pass.
    expect(await cancelBlocked('update evergreen_fires')).toBe(1);
    await passing; // it logs the failed pass
    await release();
    await db.execute(sql`delete from idempotency_keys where key = ${turnKey(items[0]!, 1)}`);
    await dueAgain(queue.id);
    await pass();
    const made = await postsWithText('Made once, crash or not');
    expect(made).toHaveLength(1);
    expect((await turns(queue.id)).find((t) => t.itemId === items[0])).toMatchObject({ postId: made[0]!.id });
  });

  it('I3 — two schedulers past a lapsed lease race for one turn: both reach the insert, evergreen_fires_item_cycle_uq picks one', async () => {
    const { queue, items } = await makeQueue([{ text: 'Raced for' }, { text: 'Not yet' }]);
    // Only this queue is due (the earlier tests' queues wait), so the two passes race for it alone.
    await db
      .update(evergreenQueues)
      .set({ nextRunAt: new Date('2100-01-01') })
      .where(sql`${evergreenQueues.id} <> ${queue.id}`);
    // A lease of 0 ms lapses at once: the second scheduler claims the queue while the first is still at work. The gate
    // holds both at the turn's insert, so each is seen there before either goes on.
    const lapsed = () => runEvergreenQueues(db, { batchSize: 10, leaseMs: 0, idleMs: 0 });
    const release = await holdLock(db, sql`lock table evergreen_fires in share mode`);
    const first = lapsed();
    await untilBlocked(db, '%insert into evergreen_fires');
    const second = lapsed();
    await untilBlocked(db, '%insert into evergreen_fires', 2);
    const generation = (await db.select().from(evergreenQueues).where(eq(evergreenQueues.id, queue.id)))[0]!.generation;
    expect(generation).toBe(2); // both claimed the queue
    await release();
    const summaries = await Promise.all([first, second]);
    // One took the turn and made its post; the other's insert met the constraint and it waited.
    expect(summaries.map((s) => [s.posted, s.waiting]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Raced for']);
    expect(await turns(queue.id)).toMatchObject([{ itemId: items[0], cycle: 1, postId: expect.any(String) }]);
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

  it('the gap counts from when its last post was scheduled to go out, not from when that post was made', async () => {
    const { queue } = await makeQueue([{ text: 'Slot ahead' }], 7);
    await pass();
    const [first] = await queuePosts();
    // Its slot was six days ahead (the nearer ones taken): it goes out then, not when its turn was taken.
    const sixDays = new Date(Date.now() + 6 * 86_400_000);
    await db.update(posts).set({ scheduledAt: sixDays }).where(eq(posts.id, first!.id));
    await settle(first!.id);
    await dueAgain(queue.id);
    await pass(new Date(Date.now() + 8 * 86_400_000)); // eight days after it was made, two after it went out: it waits
    expect(await queuePosts()).toHaveLength(1);
    await dueAgain(queue.id);
    await pass(new Date(sixDays.getTime() + 7 * 86_400_000 + 60_000)); // seven days after it went out
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Slot ahead', 'Slot ahead']);
  });
});

describe('evergreen queues — an item that cannot be posted never stops its queue', () => {
  const queueRow = async (id: string) =>
    (await db.select().from(evergreenQueues).where(eq(evergreenQueues.id, id)))[0]!;

  it('an item too long for X is passed over with its reason and the next one posts; an edit gives its turn back', async () => {
    const { queue, items } = await makeQueue([{ text: 'x'.repeat(300) }, { text: 'Fits everywhere' }]);
    const summary = await pass();
    expect(summary).toMatchObject({ posted: 1, skipped: 1 });
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Fits everywhere']);
    const passedOver = (await turns(queue.id)).find((t) => t.itemId === items[0]);
    expect(passedOver).toMatchObject({ cycle: 1, skipped: true, postId: null });
    expect(passedOver!.skipReason).toMatch(/300\/280 characters: too long for @brand/);
    expect((await queueRow(queue.id)).lastError).toBeNull();
    // Shown on the Evergreen page, beside the item.
    const listed = await listQueueItemsWithCounts(db, { workspaceId, queueIds: [queue.id] });
    expect(listed.find((i) => i.id === items[0])!.refusal).toBe(passedOver!.skipReason);

    // Fixed: the edit gives its turn of this cycle back, and it posts in this same cycle.
    expect(await updateQueueItem(db, { workspaceId, itemId: items[0]!, text: 'Short now', variants: [] })).toBe(true);
    await settle((await queuePosts())[0]!.id);
    await dueAgain(queue.id);
    await pass();
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Fits everywhere', 'Short now']);
    expect((await turns(queue.id)).filter((t) => t.cycle === 1 && t.postId)).toHaveLength(2);
    expect((await listQueueItemsWithCounts(db, { workspaceId, queueIds: [queue.id] }))[0]!.refusal).toBeNull();
  });

  it('a variant that is no post (over 5,000 characters) is passed over in its cycle, not retried every pass', async () => {
    const { queue, items } = await makeQueue([{ text: 'Cycle one text', variants: ['v'.repeat(5_001)] }]);
    await pass();
    await settle((await queuePosts())[0]!.id);
    await dueAgain(queue.id);
    expect(await pass()).toMatchObject({ posted: 0, skipped: 1 }); // cycle 2 would give X the variant
    expect((await turns(queue.id)).find((t) => t.cycle === 2)).toMatchObject({
      itemId: items[0],
      skipped: true,
      skipReason: expect.stringMatching(/5000/),
    });
    expect((await queueRow(queue.id)).lastError).toBeNull();
    await dueAgain(queue.id);
    await pass(); // cycle 3: its text again
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Cycle one text', 'Cycle one text']);
  });

  it('no free slot, or an account disconnected: the turn is given back and the queue waits, saying why', async () => {
    const { queue, items } = await makeQueue([{ text: 'Waits its slot' }, { text: 'Then me' }]);
    await putPostingSchedule(db, { workspaceId, accountId: x.id, timeZone: 'UTC', slots: [] });
    await pass();
    expect(await queuePosts()).toHaveLength(0);
    expect(await turns(queue.id)).toHaveLength(0);
    expect((await queueRow(queue.id)).lastError).toMatch(/slot/i);
    await putPostingSchedule(db, { workspaceId, accountId: x.id, timeZone: 'UTC', slots: SLOTS });
    await db.update(socialAccounts).set({ disconnectedAt: new Date() }).where(eq(socialAccounts.id, x.id));
    await dueAgain(queue.id);
    await pass();
    expect(await turns(queue.id)).toHaveLength(0);
    expect((await queueRow(queue.id)).lastError).toMatch(/disconnected or removed/);
    await db.update(socialAccounts).set({ disconnectedAt: null }).where(eq(socialAccounts.id, x.id));
    await dueAgain(queue.id);
    await pass();
    expect((await queuePosts()).map((p) => p.text)).toEqual(['Waits its slot']);
    expect((await turns(queue.id)).map((t) => t.itemId)).toEqual([items[0]]);
    expect((await queueRow(queue.id)).lastError).toBeNull();
  });

  it("an item is checked against its queue's accounts when added or edited; a removed one is gone with its turns", async () => {
    const { queue, items } = await makeQueue([{ text: 'Keep' }, { text: 'Remove me' }]);
    const check = (text: string, variants: string[] = []) =>
      checkQueueItem(db, { workspaceId, accountIds: queue.accountIds, text, variants });
    expect(await check('Fine', ['Also fine'])).toEqual({});
    expect((await check('y'.repeat(281))).text).toEqual(['The text: 281/280 characters, too long for @brand']);
    expect((await check('Fine', ['Fine too', 'z'.repeat(290)])).variants).toEqual([
      'Variant 2: 290/280 characters, too long for @brand',
    ]);
    expect((await check('Fine', ['v'.repeat(5_001)])).variants).toEqual([expect.stringMatching(/^Variant 1: /)]);
    expect((await check('   ')).text).toEqual(['Text is required']);
    expect(await deleteQueueItem(db, { workspaceId, itemId: items[1]! })).toBe(true);
    expect(await deleteQueueItem(db, { workspaceId: (await makeWorkspace(db)).id, itemId: items[0]! })).toBe(false);
    expect((await listQueueItemsWithCounts(db, { workspaceId, queueIds: [queue.id] })).map((i) => i.text)).toEqual([
      'Keep',
    ]);
  });
});
