import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSnippet } from '@/db/queries/library';
import { deliveries, posts } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { startTestSandbox } from '@/testing/sandbox';
import { bulkEditPosts, type BulkChange } from './bulk';
import { createPost } from './create';
import { createPostRequestSchema } from './schemas';

// Bulk actions (docs/content.md#bulk-actions): each selected post gets the same keyed, race-safe edit as one post —
// against the real publisher and the sandbox over real sockets. A post the publisher has started is refused and goes
// out once at its time; the others change; the same bulk action sent again changes nothing twice.

const sandbox = await startTestSandbox();
const { db } = sandbox;
type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;

async function makePosts(account: Account, label: string, count: number, at: Date) {
  const made: { id: string; text: string; at: Date }[] = [];
  for (let i = 0; i < count; i++) {
    const text = sandbox.uniqueText(`${label} ${i}`);
    const result = await createPost(
      db,
      createPostRequestSchema.parse({ text, accountIds: [account.productAccountId], scheduledAt: at.toISOString() }),
      { workspaceId: account.workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    if (result.kind !== 'ok') throw new Error(JSON.stringify(result));
    made.push({ id: result.postId, text, at });
  }
  return made;
}
const bulk = (account: Account, postIds: string[], change: BulkChange, key = randomUUID()) =>
  bulkEditPosts(db, { workspaceId: account.workspaceId, postIds, change, actor: 'user:test', key });
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 5_000 }));
const statusesOf = async (postIds: string[]) =>
  new Map(
    (
      await db
        .select({ postId: deliveries.postId, status: deliveries.status, dueAt: deliveries.dueAt })
        .from(deliveries)
        .where(inArray(deliveries.postId, postIds))
    ).map((d) => [d.postId, d]),
  );

describe('bulk actions — the same keyed edit as one post', () => {
  it('I1 — a bulk reschedule racing the publisher changes only what had not started; each post out once or moved', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe' });
    const now = new Date();
    const due = await makePosts(account, 'due now', 4, now);
    const later = await makePosts(account, 'later', 4, new Date(now.getTime() + 30 * 60_000));
    const all = [...due, ...later];
    // A gate: the platform's insert is held, so the publisher stops inside its call, its due posts claimed.
    const releasePlatform = await holdLock(db, sql`lock table sandbox.posts in share mode`);
    const publishing = publish();
    const publisherState = settled(publishing);
    await untilBlocked(db, 'insert into "sandbox"."posts"');
    expect([...(await statusesOf(due.map((p) => p.id))).values()].map((d) => d.status)).toEqual(
      due.map(() => 'publishing'),
    );
    const outcomes = await bulk(
      account,
      all.map((p) => p.id),
      { kind: 'reschedule', offsetMinutes: 60 },
    );
    expect(publisherState.done).toBe(false); // the bulk action ran while the publisher was inside its calls
    await releasePlatform();
    await publishing;
    await publish();
    const byPost = new Map(outcomes.map((o) => [o.postId, o]));
    for (const p of due) {
      expect(byPost.get(p.id), p.text).toMatchObject({
        outcome: 'refused',
        message: expect.stringMatching(/^Already (publishing|sent)/),
      });
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, p.text), p.text).toBe(1);
    }
    const states = await statusesOf(later.map((p) => p.id));
    for (const p of later) {
      expect(byPost.get(p.id), p.text).toMatchObject({ outcome: 'changed' });
      expect(states.get(p.id)).toMatchObject({ status: 'scheduled', dueAt: new Date(p.at.getTime() + 60 * 60_000) });
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, p.text)).toBe(0);
    }
  });

  it('I1 — racing freely (no gate): every post is either sent once at its time and refused, or moved and not sent', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe', latencyMs: 50 });
    const made = await makePosts(account, 'race', 10, new Date());
    const [, outcomes] = await Promise.all([
      publish(),
      bulk(
        account,
        made.map((p) => p.id),
        { kind: 'reschedule', offsetMinutes: 120 },
      ),
    ]);
    await publish();
    const states = await statusesOf(made.map((p) => p.id));
    for (const p of made) {
      const outcome = outcomes.find((o) => o.postId === p.id)!;
      const copies = await sandbox.copiesOfText(account.sandboxAccount.id, p.text);
      if (outcome.outcome === 'changed') {
        expect(copies, p.text).toBe(0);
        expect(states.get(p.id)!.status).toBe('scheduled');
      } else {
        expect(outcome.outcome).toBe('refused');
        expect(copies, p.text).toBe(1);
        expect(states.get(p.id)!.status).toBe('sent');
      }
    }
  });

  it('the same bulk action twice at once (a double click) changes each post once; a retry after replays each answer', async () => {
    const account = await sandbox.connectAccount('x');
    const at = new Date(Date.now() + 3_600_000);
    const made = await makePosts(account, 'twice', 3, at);
    const key = randomUUID();
    const change: BulkChange = { kind: 'reschedule', offsetMinutes: 24 * 60 };
    const ids = made.map((p) => p.id);
    // Both clicks at once, each on its own connections.
    const [first, second] = await Promise.all([bulk(account, ids, change, key), bulk(account, ids, change, key)]);
    for (const [i, id] of ids.entries()) {
      const pair = [first[i]!, second[i]!];
      expect(pair.map((o) => o.postId)).toEqual([id, id]);
      // One of the two made the change; the other replays it, or says it is still being made: never a second change.
      expect(
        pair.filter((o) => o.message === 'Changed.'),
        id,
      ).toHaveLength(1);
      const other = pair.find((o) => o.message !== 'Changed.')!;
      expect(other.message).toMatch(/^(Changed \(already, by this action\)\.|Still being changed)/);
    }
    const again = await bulk(account, ids, change, key);
    expect(again.map((o) => o.outcome)).toEqual(['changed', 'changed', 'changed']);
    const rows = await db
      .select({ at: posts.scheduledAt })
      .from(posts)
      .where(
        inArray(
          posts.id,
          made.map((p) => p.id),
        ),
      );
    expect(rows.map((r) => r.at.getTime())).toEqual(made.map(() => at.getTime() + 86_400_000));
  });

  it('snippets, accounts, the queue and cancel: changed, unchanged or refused with the reason', async () => {
    const account = await sandbox.connectAccount('x');
    const other = await sandbox.connectAccount('mastodon', account.workspaceId);
    const snippet = (await createSnippet(db, {
      workspaceId: account.workspaceId,
      name: 'sig',
      kind: 'signature',
      text: '— The team',
    }))!;
    const made = await makePosts(account, 'edit', 2, new Date(Date.now() + 3_600_000));
    const ids = made.map((p) => p.id);
    expect(
      (await bulk(account, ids, { kind: 'snippet', snippetId: snippet.id, op: 'add' })).map((o) => o.outcome),
    ).toEqual(['changed', 'changed']);
    expect((await db.select().from(posts).where(eq(posts.id, ids[0]!)))[0]!.text).toBe(
      `${made[0]!.text}\n\n— The team`,
    );
    expect(
      (await bulk(account, ids, { kind: 'snippet', snippetId: snippet.id, op: 'add' })).map((o) => o.outcome),
    ).toEqual(['unchanged', 'unchanged']);
    await bulk(account, ids, { kind: 'snippet', snippetId: snippet.id, op: 'remove' });
    expect((await db.select().from(posts).where(eq(posts.id, ids[0]!)))[0]!.text).toBe(made[0]!.text);
    const widened = await bulk(account, ids, { kind: 'accounts', add: [other.productAccountId], remove: [] });
    expect(widened.map((o) => o.outcome)).toEqual(['changed', 'changed']);
    const emptied = await bulk(account, ids, {
      kind: 'accounts',
      add: [],
      remove: [account.productAccountId, other.productAccountId],
    });
    expect(emptied.map((o) => o.message)).toEqual(
      ids.map(() => 'A post needs at least one account: cancel it instead.'),
    );
    // No posting slots: "Move to the queue" is refused with the slot's reason, nothing changed.
    const queued = await bulk(account, ids, { kind: 'queue' });
    expect(queued.every((o) => o.outcome === 'refused' && /slot/i.test(o.message))).toBe(true);
    const canceled = await bulk(account, [...ids, randomUUID()], { kind: 'cancel' });
    expect(canceled.map((o) => o.outcome)).toEqual(['changed', 'changed', 'refused']);
    expect((await bulk(account, ids, { kind: 'reschedule', offsetMinutes: 5 })).map((o) => o.message)).toEqual(
      ids.map(() => 'Canceled: nothing to change.'),
    );
  });
});
