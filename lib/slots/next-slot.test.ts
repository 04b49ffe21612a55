import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { putPostingSchedule } from '@/db/queries/slots';
import { posts, slotReservations } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { holdLock } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { cancelPost } from '@/lib/posts/cancel';
import { createPost } from '@/lib/posts/create';
import { editPost } from '@/lib/posts/edit';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { SLOT_HORIZON_DAYS, SLOT_LEAD_MS } from './next-slot';
import { upcomingSlots, WEEKDAYS } from './schedule';

const { db } = await createTestDatabase({ max: 70 });

type SlotInput = { weekday: string; time: string };
const EVERY_HOUR: SlotInput[] = WEEKDAYS.flatMap((weekday) =>
  Array.from({ length: 24 }, (_, h) => ({ weekday, time: `${String(h).padStart(2, '0')}:00` })),
);
const DAILY_9_TO_11: SlotInput[] = WEEKDAYS.flatMap((weekday) =>
  ['09:00', '10:00', '11:00'].map((time) => ({ weekday, time })),
);

async function accountWithSlots(workspaceId: string, slots: SlotInput[] | null, timeZone = 'UTC') {
  const account = await makeAccount(db, workspaceId);
  if (slots) await putPostingSchedule(db, { workspaceId, accountId: account.id, timeZone, slots });
  return account;
}

const queue = (workspaceId: string, accountIds: string[], text = `queued ${randomUUID()}`) =>
  createPost(db, createPostRequestSchema.parse({ text, accountIds, slot: 'next' }), {
    workspaceId,
    source: 'api',
    idempotencyKey: randomUUID(),
    actor: 'test',
  });
const scheduledAtOf = async (result: Awaited<ReturnType<typeof queue>>) => {
  if (result.kind !== 'ok') throw new Error(JSON.stringify(result));
  return (await db.select().from(posts).where(eq(posts.id, result.postId)))[0]!.scheduledAt.toISOString();
};
/** The schedule's next slots as the queue computes them (after the lead time), as ISO strings. */
const nextSlots = (slots: SlotInput[], timeZone = 'UTC', count = 10) =>
  upcomingSlots(
    { timeZone, slots: slots as { weekday: (typeof WEEKDAYS)[number]; time: string }[] },
    {
      after: new Date(Date.now() + SLOT_LEAD_MS),
      until: new Date(Date.now() + SLOT_HORIZON_DAYS * 86_400_000),
    },
  )
    .slice(0, count)
    .map((d) => d.toISOString());

describe('posting slots: "next slot" takes the next free slot, and never one already taken', () => {
  it('consecutive queued posts fill consecutive slots of the account', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const account = await accountWithSlots(workspaceId, DAILY_9_TO_11, 'Europe/Berlin');
    const expected = nextSlots(DAILY_9_TO_11, 'Europe/Berlin', 3);
    const got = [];
    for (let i = 0; i < 3; i++) got.push(await scheduledAtOf(await queue(workspaceId, [account.id])));
    expect(got).toEqual(expected);
  });

  it('an account without slots is a field error on `slot` (transient: slots may be added), and nothing is written', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const account = await accountWithSlots(workspaceId, null);
    expect(await queue(workspaceId, [account.id])).toEqual({
      kind: 'invalid',
      errors: { slot: ['@t has no posting slots yet (Settings → Posting slots)'] },
      transient: true,
    });
    expect(await db.select().from(posts).where(eq(posts.workspaceId, workspaceId))).toEqual([]);
  });

  it('a post to two accounts takes the earliest slot free in both; the earlier slot left free on one stays free', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const a = await accountWithSlots(workspaceId, DAILY_9_TO_11);
    const b = await accountWithSlots(workspaceId, DAILY_9_TO_11);
    const [first, second, third] = nextSlots(DAILY_9_TO_11, 'UTC', 3);
    expect(await scheduledAtOf(await queue(workspaceId, [b.id]))).toBe(first); // b's first slot is taken
    expect(await scheduledAtOf(await queue(workspaceId, [a.id, b.id]))).toBe(second); // the latest of the two next slots
    expect(await scheduledAtOf(await queue(workspaceId, [a.id]))).toBe(first); // a's first slot was never taken
    expect(await scheduledAtOf(await queue(workspaceId, [a.id, b.id]))).toBe(third);
  });

  it('accounts whose schedules share no instant are told so (a post has one time)', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const a = await accountWithSlots(workspaceId, [{ weekday: 'mon', time: '09:00' }], 'Europe/Berlin');
    const b = await accountWithSlots(workspaceId, [{ weekday: 'mon', time: '09:00' }], 'America/New_York');
    expect(await queue(workspaceId, [a.id, b.id])).toMatchObject({
      kind: 'invalid',
      errors: { slot: [expect.stringMatching(/no free slot in common/)] },
    });
  });

  it('canceling a queued post or moving it elsewhere frees its slot for the next one', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const account = await accountWithSlots(workspaceId, DAILY_9_TO_11);
    const [first, second] = nextSlots(DAILY_9_TO_11, 'UTC', 2);
    const canceled = await queue(workspaceId, [account.id]);
    expect(await scheduledAtOf(canceled)).toBe(first);
    if (canceled.kind !== 'ok') return;
    expect(await cancelPost(db, { workspaceId, postId: canceled.postId, actor: 'test' })).toMatchObject({ kind: 'ok' });
    const moved = await queue(workspaceId, [account.id]);
    expect(await scheduledAtOf(moved)).toBe(first); // the canceled post's slot
    if (moved.kind !== 'ok') return;
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expect(
      await editPost(db, { workspaceId, postId: moved.postId, changes: { scheduledAt: later }, actor: 'test' }),
    ).toMatchObject({ kind: 'ok' });
    expect(await scheduledAtOf(await queue(workspaceId, [account.id]))).toBe(first); // freed by the move
    expect(await scheduledAtOf(await queue(workspaceId, [account.id]))).toBe(second);
  });

  it('the database refuses a second post in one slot (slot_reservations_account_slot_uq)', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const account = await makeAccount(db, workspaceId);
    const row = { workspaceId, accountId: account.id, slotAt: new Date('2030-01-07T09:00:00Z') };
    await db.insert(slotReservations).values({ ...row, postId: randomUUID() });
    await expect(db.insert(slotReservations).values({ ...row, postId: randomUUID() })).rejects.toMatchObject({
      cause: { constraint_name: 'slot_reservations_account_slot_uq' },
    });
  });

  it('50 parallel "next slot" requests, all waiting on the same first slot, end in 50 different slots', async () => {
    const { id: workspaceId } = await makeWorkspace(db);
    const account = await accountWithSlots(workspaceId, EVERY_HOUR);
    const [held, ...rest] = nextSlots(EVERY_HOUR, 'UTC', 51);
    // Another transaction holds the first free slot, uncommitted: every request computes it as free and blocks on it.
    const release = await holdLock(
      db,
      sql`insert into slot_reservations (workspace_id, account_id, slot_at, post_id)
        values (${workspaceId}, ${account.id}, ${held}::timestamptz, ${randomUUID()})`,
    );
    const requests = Array.from({ length: 50 }, () => queue(workspaceId, [account.id]));
    // A request that fails before it blocks (no connection to be had, say) is the failure to report, not a count of 0.
    const failures: unknown[] = [];
    for (const r of requests) r.catch((error: unknown) => failures.push(error));

    // Side 1: all 50 started, each on its own connection, each waiting for the same slot row.
    const waiting = await waitForBlockedInserts(50, failures);
    expect(waiting).toBe(50);
    await release(); // the holder commits: that slot is gone, and the 50 move on

    // Side 2: 50 posts in 50 different slots — the 50 next ones, none the held one, none twice.
    const results = await Promise.all(requests);
    expect(results.every((r) => r.kind === 'ok' && !r.replayed)).toBe(true);
    const times = await Promise.all(results.map(scheduledAtOf));
    expect(new Set(times).size).toBe(50);
    expect(times).not.toContain(held);
    expect([...times].sort()).toEqual(rest);
    const reservations = await db
      .select({ slotAt: slotReservations.slotAt, postId: slotReservations.postId })
      .from(slotReservations)
      .where(eq(slotReservations.accountId, account.id));
    expect(reservations).toHaveLength(51);
    // Each post sits at the slot it reserved.
    for (const r of results)
      if (r.kind === 'ok')
        expect(reservations.find((x) => x.postId === r.postId)?.slotAt.toISOString()).toBe(times[results.indexOf(r)]);
  }, 60_000);
});

/**
 * Counts sessions blocked on a lock while inserting a slot reservation; waits until `count` are (30 s at most: 50 new
 * connections to a durable Postgres under a loaded CI take a while). Throws a request's own error if one failed.
 */
async function waitForBlockedInserts(count: number, failures: unknown[]) {
  const deadline = Date.now() + 30_000;
  let n = 0;
  while (Date.now() < deadline) {
    if (failures.length > 0) throw failures[0];
    const [row] = [
      ...(await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into "slot_reservations"%'`)),
    ];
    n = row!.n;
    if (n >= count) return n;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return n;
}
