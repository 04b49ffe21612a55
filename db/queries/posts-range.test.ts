import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveries, posts } from '../schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { listPostsInRange } from './posts';

const { db } = await createTestDatabase();

const at = (iso: string) => new Date(iso);
const ours = { workspaceId: '', accounts: [] as string[] };
const theirs = { workspaceId: '', accounts: [] as string[] };

async function seedPost(workspaceId: string, accountIds: string[], scheduledAt: Date, text = `p ${randomUUID()}`) {
  const [post] = await db
    .insert(posts)
    .values({ workspaceId, text, scheduledAt, source: 'api', idempotencyKey: randomUUID() })
    .returning();
  for (const accountId of accountIds)
    await db.insert(deliveries).values({ workspaceId, postId: post!.id, accountId, dueAt: scheduledAt });
  return post!;
}

beforeAll(async () => {
  for (const side of [ours, theirs]) {
    side.workspaceId = (await makeWorkspace(db)).id;
    side.accounts = [(await makeAccount(db, side.workspaceId)).id, (await makeAccount(db, side.workspaceId)).id];
  }
});

describe('listPostsInRange — the calendar and GET /api/v1/posts?from=&to=', () => {
  it("I6 — tenancy: another workspace's posts in the same range never appear, nor its deliveries", async () => {
    const mine = await seedPost(ours.workspaceId, ours.accounts, at('2030-01-10T09:00:00Z'));
    const other = await seedPost(theirs.workspaceId, theirs.accounts, at('2030-01-10T09:00:00Z'));
    const range = { from: at('2030-01-01T00:00:00Z'), to: at('2030-02-01T00:00:00Z'), limit: 100 };

    const listed = await listPostsInRange(db, { workspaceId: ours.workspaceId, ...range });
    expect(listed.map((r) => r.post.id)).toEqual([mine.id]);
    expect(listed[0]!.deliveries.map((d) => d.accountId).sort()).toEqual([...ours.accounts].sort());
    const theirsListed = await listPostsInRange(db, { workspaceId: theirs.workspaceId, ...range });
    expect(theirsListed.map((r) => r.post.id)).toEqual([other.id]);
    // Filtering by the other workspace's account finds nothing, though that account has a post in the range.
    expect(
      await listPostsInRange(db, { workspaceId: ours.workspaceId, ...range, accountId: theirs.accounts[0] }),
    ).toEqual([]);
    expect(await listPostsInRange(db, { workspaceId: randomUUID(), ...range })).toEqual([]);
  });

  it('is [from, to): a post at `from` is in, one at `to` is out; time order, then id', async () => {
    const from = at('2030-03-01T00:00:00Z');
    const to = at('2030-03-02T00:00:00Z');
    const atFrom = await seedPost(ours.workspaceId, [ours.accounts[0]!], from);
    const late = await seedPost(ours.workspaceId, [ours.accounts[0]!], at('2030-03-01T23:59:59.999Z'));
    const mid = await seedPost(ours.workspaceId, [ours.accounts[0]!], at('2030-03-01T12:00:00Z'));
    await seedPost(ours.workspaceId, [ours.accounts[0]!], to);
    await seedPost(ours.workspaceId, [ours.accounts[0]!], at('2030-02-28T23:59:59.999Z'));
    const listed = await listPostsInRange(db, { workspaceId: ours.workspaceId, from, to, limit: 100 });
    expect(listed.map((r) => r.post.id)).toEqual([atFrom.id, mid.id, late.id]);
    expect(listed[0]!.deliveries[0]).toMatchObject({ accountId: ours.accounts[0], status: 'scheduled' });
  });

  it('filters by account and by delivery status; the post keeps all its deliveries', async () => {
    const from = at('2030-04-01T00:00:00Z');
    const to = at('2030-04-30T00:00:00Z');
    const both = await seedPost(ours.workspaceId, ours.accounts, at('2030-04-02T10:00:00Z'));
    const onlySecond = await seedPost(ours.workspaceId, [ours.accounts[1]!], at('2030-04-03T10:00:00Z'));
    await db.execute(sql`update deliveries set status = 'canceled' where post_id = ${onlySecond.id}`);
    const range = { workspaceId: ours.workspaceId, from, to, limit: 100 };

    const byFirst = await listPostsInRange(db, { ...range, accountId: ours.accounts[0] });
    expect(byFirst.map((r) => r.post.id)).toEqual([both.id]);
    expect(byFirst[0]!.deliveries).toHaveLength(2);
    expect((await listPostsInRange(db, { ...range, status: 'canceled' })).map((r) => r.post.id)).toEqual([
      onlySecond.id,
    ]);
    expect(
      (await listPostsInRange(db, { ...range, status: 'scheduled', accountId: ours.accounts[1] })).map(
        (r) => r.post.id,
      ),
    ).toEqual([both.id]);
  });

  it('pages with a cursor that keeps microseconds: posts within one millisecond are neither skipped nor repeated', async () => {
    const from = at('2030-05-01T00:00:00Z');
    const to = at('2030-05-02T00:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await seedPost(ours.workspaceId, [ours.accounts[0]!], from)).id);
    // Five times inside one millisecond (what a JS Date cannot tell apart), given by Postgres itself.
    await db.execute(
      sql`update posts set scheduled_at = '2030-05-01T08:00:00.000Z'::timestamptz + (random() * interval '900 microseconds')
          where id = any(${sql.raw(`array[${ids.map((id) => `'${id}'::uuid`).join(',')}]`)})`,
    );
    const seen: string[] = [];
    let after: { scheduledAt: string; id: string } | undefined;
    for (let page = 0; page < 10; page++) {
      const rows = await listPostsInRange(db, { workspaceId: ours.workspaceId, from, to, after, limit: 2 });
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => r.post.id));
      after = rows.at(-1)!.cursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(ids));
  });
});
