import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiRequest, idParams } from '@/testing/api-fixture';
import { deliveries } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { editScheduledPost } from './edit';
import { holdLock, untilBlocked } from '@/testing/race';

const sandbox = await startTestSandbox();
const { db } = sandbox;

const copiesWithText = async (texts: string[]) => {
  const result = await db.execute<{ text: string; n: number }>(
    sql`select text, count(*)::int as n from sandbox.posts where text = any(${sql.raw(`array[${texts.map((t) => `'${t}'`).join(',')}]`)}) group by text`,
  );
  return new Map([...result].map((r) => [r.text, r.n]));
};

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};

describe('editing races the publisher', () => {
  it('an edit racing the claim ends one of two ways — new text published once, or old text and the edit refused — never both; each way happens', async () => {
    const account = await sandbox.connectAccount('x');
    const publisher = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 5_000 }));
    const outcomes = { editLanded: 0, editRefused: 0 };
    for (let i = 0; i < 30; i++) {
      const tag = randomUUID().slice(0, 8);
      const [deliveryId] = await schedulePosts(db, {
        workspaceId: account.workspaceId,
        accountId: account.productAccountId,
        count: 1,
        label: `old ${tag}`,
      });
      const [{ postId }] = (await db
        .select({ postId: deliveries.postId })
        .from(deliveries)
        .where(sql`${deliveries.id} = ${deliveryId}`)) as [{ postId: string }];
      const editFirst = i % 2 === 0; // half the runs each way, so both branches are exercised every time
      let edit: Awaited<ReturnType<typeof editScheduledPost>>;
      if (editFirst) {
        // The edit holds the delivery's row lock (stopped at its post update) while a whole publisher pass runs.
        const releasePost = await holdLock(db, sql`select 1 from posts where id = ${postId} for update`);
        const editing = editScheduledPost(db, {
          workspaceId: account.workspaceId,
          postId,
          changes: { text: `new ${tag}` },
          actor: 'test',
        });
        const editState = settled(editing);
        await untilBlocked(db, 'update "posts"');
        await publisher();
        expect(editState.done).toBe(false); // the pass ran while the edit was in flight
        const claims = await db.execute(sql`select 1 from claims where delivery_id = ${deliveryId}`);
        expect([...claims]).toHaveLength(0); // the publisher skipped the row the edit holds
        await releasePost();
        edit = await editing;
      } else {
        // The publisher has claimed and is inside the platform call (the sandbox's insert is held) while the edit runs.
        const releasePlatform = await holdLock(db, sql`lock table sandbox.posts in share mode`);
        const publishing = publisher();
        const publisherState = settled(publishing);
        await untilBlocked(db, 'insert into "sandbox"."posts"');
        edit = await editScheduledPost(db, {
          workspaceId: account.workspaceId,
          postId,
          changes: { text: `new ${tag}` },
          actor: 'test',
        });
        expect(publisherState.done).toBe(false); // the edit ran while the publisher was in flight
        await releasePlatform();
        await publishing;
      }
      expect(edit.ok).toBe(editFirst);
      await publisher(); // publishes the edited text if the edit won
      const copies = await copiesWithText([`old ${tag} #0`, `new ${tag}`]);
      if (edit.ok) {
        outcomes.editLanded++;
        expect(copies.get(`new ${tag}`)).toBe(1);
        expect(copies.has(`old ${tag} #0`)).toBe(false);
      } else {
        outcomes.editRefused++;
        expect(edit.reason).toMatch(/already_publishing|already_sent/);
        expect('deliveries' in edit ? edit.deliveries.map((d) => d.status) : []).toEqual(['publishing']); // refused mid-call, not after it
        expect(copies.get(`old ${tag} #0`)).toBe(1);
        expect(copies.has(`new ${tag}`)).toBe(false);
      }
      expect((await deliveryStates(db, [deliveryId!])).get(deliveryId!)!.status).toBe('sent');
    }
    expect(outcomes.editLanded + outcomes.editRefused).toBe(30);
    expect(outcomes.editLanded).toBeGreaterThanOrEqual(1);
    expect(outcomes.editRefused).toBeGreaterThanOrEqual(1);
  });

  it('a scheduled post can be re-timed and re-targeted; a sent one answers "already sent" and is unchanged', async () => {
    const a = await sandbox.connectAccount('x');
    const b = await sandbox.connectAccount('mastodon', a.workspaceId);
    const later = new Date(Date.now() + 3_600_000);
    const [deliveryId] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: 'retime',
      scheduledAt: later,
    });
    const [{ postId }] = (await db
      .select({ postId: deliveries.postId })
      .from(deliveries)
      .where(sql`${deliveries.id} = ${deliveryId}`)) as [{ postId: string }];
    const even = new Date(Date.now() + 7_200_000).toISOString();
    const edited = await editScheduledPost(db, {
      workspaceId: a.workspaceId,
      postId,
      changes: { scheduledAt: even, accountIds: [b.productAccountId] },
      actor: 'test',
    });
    expect(edited.ok).toBe(true);
    if (!edited.ok) return;
    expect(edited.post.scheduledAt).toBe(new Date(even).toISOString());
    expect(edited.post.deliveries.map((d) => [d.accountId, d.status]).sort()).toEqual(
      [
        [a.productAccountId, 'canceled'],
        [b.productAccountId, 'scheduled'],
      ].sort(),
    );

    const [sentId] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('sent'),
    });
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url));
    const [{ sentPost }] = (await db
      .select({ sentPost: deliveries.postId })
      .from(deliveries)
      .where(sql`${deliveries.id} = ${sentId}`)) as [{ sentPost: string }];
    const refused = await editScheduledPost(db, {
      workspaceId: a.workspaceId,
      postId: sentPost,
      changes: { text: 'too late' },
      actor: 'test',
    });
    expect(refused).toMatchObject({ ok: false, reason: 'already_sent' });
    const other = await sandbox.connectAccount('x');
    expect(
      await editScheduledPost(db, {
        workspaceId: other.workspaceId,
        postId,
        changes: { text: 'not mine' },
        actor: 'test',
      }),
    ).toEqual({ ok: false, reason: 'not_found' });
  });

  it('a delivery released after an ambiguous attempt can no longer be edited (the old text may still surface)', async () => {
    const a = await sandbox.connectAccount('x');
    await sandbox.setFaults(a.sandboxAccount.id, { timeoutBeforeCommit: 1 });
    const [deliveryId] = await schedulePosts(db, {
      workspaceId: a.workspaceId,
      accountId: a.productAccountId,
      count: 1,
      label: sandbox.uniqueText('maybe live'),
    });
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 300 }));
    expect((await deliveryStates(db, [deliveryId!])).get(deliveryId!)!.status).toBe('ambiguous');
    // Reconciliation released it (not found twice): scheduled again, but an attempt may be live.
    await db.execute(
      sql`update deliveries set status = 'scheduled', due_at = now() + interval '1 hour' where id = ${deliveryId}`,
    );
    await db.execute(sql`update claims set released_at = now() where delivery_id = ${deliveryId}`);
    const [{ postId }] = (await db
      .select({ postId: deliveries.postId })
      .from(deliveries)
      .where(sql`${deliveries.id} = ${deliveryId}`)) as [{ postId: string }];
    expect(
      await editScheduledPost(db, { workspaceId: a.workspaceId, postId, changes: { text: 'changed' }, actor: 'test' }),
    ).toMatchObject({ ok: false, reason: 'already_publishing' });
  });

  it('PATCH /api/v1/posts/:id is keyed: a retry replays the answer; replaying the original create still returns the original', async () => {
    process.env.DATABASE_URL = (await import('@/testing/db/test-database')).lastTestDatabaseUrl();
    const { POST: create } = await import('@/app/api/v1/posts/route');
    const { PATCH } = await import('@/app/api/v1/posts/[id]/route');
    const a = await sandbox.connectAccount('x');
    const token = await sandbox.apiKey(a.workspaceId);
    const createKey = randomUUID();
    const payload = {
      text: 'before the edit',
      accountIds: [a.productAccountId],
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const created = await create(
      apiRequest('/api/v1/posts', { method: 'POST', token, key: createKey, body: payload }),
      { params: Promise.resolve({}) as Promise<Record<string, never>> },
    );
    const original = await created.text();
    const id = JSON.parse(original).id as string;
    const editKey = randomUUID();
    const patch = () =>
      PATCH(
        apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token, key: editKey, body: { text: 'after the edit' } }),
        idParams(id),
      );
    const first = await patch();
    expect(first.status).toBe(200);
    expect((await first.json()).text).toBe('after the edit');
    const again = await patch();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replayCreate = await create(
      apiRequest('/api/v1/posts', { method: 'POST', token, key: createKey, body: payload }),
      { params: Promise.resolve({}) as Promise<Record<string, never>> },
    );
    expect(await replayCreate.text()).toBe(original);
    expect(
      (await PATCH(apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token, body: { text: 'x' } }), idParams(id)))
        .status,
    ).toBe(400);
    expect(
      (
        await PATCH(
          apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token, key: randomUUID(), body: {} }),
          idParams(id),
        )
      ).status,
    ).toBe(422);
  });
});
