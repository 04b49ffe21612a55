import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { attempts, deliveries, posts } from '@/db/schema';
import { makeUser } from '@/testing/db/factories';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import type { Role } from '@/lib/auth/roles';
import type { WorkspaceContext } from '@/lib/auth/session';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';

// The calendar's move action as the browser calls it; only the cookie's session lookup is replaced. The
// database, the publisher and the sandbox platform (over real sockets) are real.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const sandbox = await startTestSandbox();
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl(); // the action's getDb() reads the sandbox's database
const { movePostAction } = await import('./actions');

let account: Awaited<ReturnType<typeof sandbox.connectAccount>>;
let user = { id: '', email: '', name: '' };
const as = (role: Role) => {
  context = { user, workspace: { id: account.workspaceId, slug: 'w', name: 'w' }, role, memberships: [] };
};

beforeAll(async () => {
  account = await sandbox.connectAccount('x');
  const row = await makeUser(db);
  user = { id: row.id, email: row.email, name: row.name };
  await addMembership(db, { workspaceId: account.workspaceId, userId: row.id, role: 'manager' });
  as('manager');
});

/** What the calendar sends for one move: the post, a wall-clock time in a zone, and the move's own key. */
function moveForm(postId: string, at: Date, key = randomUUID()) {
  const form = new FormData();
  form.set('postId', postId);
  form.set('idempotencyKey', key);
  form.set('localDateTime', at.toISOString().slice(0, 16));
  form.set('timeZone', 'UTC');
  return form;
}

const publisher = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 5_000 }));
const copiesOf = (text: string) => sandbox.copiesOfText(account.sandboxAccount.id, text);

async function scheduleOne(label: string, scheduledAt?: Date) {
  const [deliveryId] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label,
    scheduledAt,
  });
  const [row] = await db
    .select({ postId: deliveries.postId, scheduledAt: posts.scheduledAt })
    .from(deliveries)
    .innerJoin(posts, eq(posts.id, deliveries.postId))
    .where(eq(deliveries.id, deliveryId!));
  return { deliveryId: deliveryId!, postId: row!.postId, scheduledAt: row!.scheduledAt, text: `${label} #0` };
}

async function deliveryRow(deliveryId: string) {
  const [row] = await db
    .select({ status: deliveries.status, dueAt: deliveries.dueAt, scheduledAt: posts.scheduledAt })
    .from(deliveries)
    .innerJoin(posts, eq(posts.id, deliveries.postId))
    .where(eq(deliveries.id, deliveryId));
  return row!;
}

/** A whole minute (the calendar moves to minutes) far enough ahead that the race loop ends before it. */
function nextMinuteAtLeast(ms: number): Date {
  const soonest = Date.now() + ms;
  return new Date(Math.ceil(soonest / 60_000) * 60_000);
}

describe('moving a post on the calendar races the publisher', () => {
  it('a move racing the claim lands before it (published once, at the new time) or is refused after it (published once, at the old time) — each way happens', async () => {
    const target = nextMinuteAtLeast(12_000);
    const moved: { deliveryId: string; text: string }[] = [];
    const outcomes = { moveLanded: 0, moveRefused: 0 };
    for (let i = 0; i < 8; i++) {
      const post = await scheduleOne(sandbox.uniqueText(`due now ${i}`)); // due now: the publisher may claim it
      const moveFirst = i % 2 === 0; // half the runs each way, so both branches are exercised every time
      let result: Awaited<ReturnType<typeof movePostAction>>;
      if (moveFirst) {
        // The move holds the delivery's row lock (stopped at its post update) while a whole publisher pass runs.
        const releasePost = await holdLock(db, sql`select 1 from posts where id = ${post.postId} for update`);
        const moving = movePostAction(undefined, moveForm(post.postId, target));
        const moveState = settled(moving);
        await untilBlocked(db, 'update "posts"');
        await publisher();
        expect(moveState.done).toBe(false); // the pass ran while the move was in flight
        expect([...(await db.execute(sql`select 1 from claims where delivery_id = ${post.deliveryId}`))]).toHaveLength(
          0,
        ); // the publisher skipped the row the move holds
        await releasePost();
        result = await moving;
      } else {
        // The publisher has claimed and is inside the platform call (the sandbox's insert is held) while the move runs.
        const releasePlatform = await holdLock(db, sql`lock table sandbox.posts in share mode`);
        const publishing = publisher();
        const publisherState = settled(publishing);
        await untilBlocked(db, 'insert into "sandbox"."posts"');
        result = await movePostAction(undefined, moveForm(post.postId, target));
        expect(publisherState.done).toBe(false); // the move ran while the publisher was in flight
        await releasePlatform();
        await publishing;
      }
      await publisher(); // a pass right after the race: a moved post is not due yet
      const row = await deliveryRow(post.deliveryId);
      if (moveFirst) {
        outcomes.moveLanded++;
        expect(result).toMatchObject({ ok: true, data: { postId: post.postId, scheduledAt: target.toISOString() } });
        expect(row).toMatchObject({ status: 'scheduled', dueAt: target, scheduledAt: target });
        expect(await copiesOf(post.text)).toBe(0);
        moved.push(post);
      } else {
        outcomes.moveRefused++;
        expect(result).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(/^Already publishing/) });
        expect(row).toMatchObject({ status: 'sent', scheduledAt: post.scheduledAt });
        expect(await copiesOf(post.text)).toBe(1);
      }
    }
    expect(outcomes).toEqual({ moveLanded: 4, moveRefused: 4 });
    expect(Date.now()).toBeLessThan(target.getTime()); // nothing above could have published a moved post

    // At the new time each moved post goes out, once.
    await new Promise((resolve) => setTimeout(resolve, target.getTime() - Date.now() + 50));
    await publisher();
    await publisher();
    for (const post of moved) {
      expect(await copiesOf(post.text)).toBe(1);
      expect((await deliveryRow(post.deliveryId)).status).toBe('sent');
      const started = await db
        .select({ startedAt: attempts.startedAt })
        .from(attempts)
        .where(eq(attempts.deliveryId, post.deliveryId));
      expect(started).toHaveLength(1);
      expect(started[0]!.startedAt.getTime()).toBeGreaterThanOrEqual(target.getTime());
    }
  }, 120_000);

  it('the move is keyed: a retry of the same move replays its answer; the key cannot be reused for another time', async () => {
    const post = await scheduleOne(sandbox.uniqueText('keyed'), new Date(Date.now() + 3_600_000));
    const key = randomUUID();
    const first = new Date(Math.ceil((Date.now() + 7_200_000) / 60_000) * 60_000);
    expect(await movePostAction(undefined, moveForm(post.postId, first, key))).toMatchObject({
      ok: true,
      data: { scheduledAt: first.toISOString(), replayed: false },
    });
    expect(await movePostAction(undefined, moveForm(post.postId, first, key))).toMatchObject({
      ok: true,
      data: { scheduledAt: first.toISOString(), replayed: true },
    });
    const other = new Date(first.getTime() + 3_600_000);
    expect(await movePostAction(undefined, moveForm(post.postId, other, key))).toMatchObject({
      ok: false,
      status: 422,
    });
    expect((await deliveryRow(post.deliveryId)).dueAt).toEqual(first);
    const events = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from delivery_events where delivery_id = ${post.deliveryId} and reason = 'edited'`,
    );
    expect([...events][0]!.n).toBe(1); // the replay wrote nothing
  });

  it('a sent post is refused "already sent"; a past time, a skipped local time and a viewer are refused; nothing changes', async () => {
    const sent = await scheduleOne(sandbox.uniqueText('sent'));
    await publisher();
    const later = new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000);
    expect(await movePostAction(undefined, moveForm(sent.postId, later))).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/^Already sent/),
    });
    expect(await deliveryRow(sent.deliveryId)).toMatchObject({ status: 'sent', scheduledAt: sent.scheduledAt });

    const post = await scheduleOne(sandbox.uniqueText('future'), later);
    expect(await movePostAction(undefined, moveForm(post.postId, new Date(Date.now() - 3_600_000)))).toMatchObject({
      ok: false,
      status: 422,
      message: 'The time is in the past',
    });
    const skipped = moveForm(post.postId, later);
    skipped.set('localDateTime', '2030-03-31T02:30'); // clocks skip 02:00–03:00 in Berlin that night
    skipped.set('timeZone', 'Europe/Berlin');
    expect(await movePostAction(undefined, skipped)).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('does not exist in Europe/Berlin'),
    });
    as('viewer');
    try {
      expect(await movePostAction(undefined, moveForm(post.postId, new Date(later.getTime() + 60_000)))).toMatchObject({
        ok: false,
        status: 403,
      });
    } finally {
      as('manager');
    }
    expect((await deliveryRow(post.deliveryId)).dueAt).toEqual(later);
  });
});
