import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { claims, deliveries, idempotencyKeys, posts, postParts, attempts } from './schema';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';

const PARALLEL = 50;
const { db } = await createTestDatabase({ max: PARALLEL });

/** Runs the same insert from PARALLEL connections at once; returns how many succeeded and how they failed. */
async function race(insert: () => Promise<unknown>) {
  const results = await Promise.allSettled(Array.from({ length: PARALLEL }, insert));
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  return {
    succeeded: results.length - failures.length,
    constraints: new Set(
      failures.map((f) => f.reason?.cause?.constraint_name ?? f.reason?.constraint_name ?? String(f.reason)),
    ),
  };
}

let workspaceId: string;
let accountId: string;
beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  accountId = (await makeAccount(db, workspaceId)).id;
});

describe('named guards reject duplicates under parallel inserts', () => {
  it('I3: idempotency_keys_scope_uq — one row per (workspace, operation, key)', async () => {
    const key = randomUUID();
    const outcome = await race(() =>
      db.insert(idempotencyKeys).values({
        workspaceId,
        operation: 'posts.create',
        key,
        fingerprint: 'f',
        expiresAt: new Date(Date.now() + 86_400_000),
      }),
    );
    expect(outcome.succeeded).toBe(1);
    expect([...outcome.constraints]).toEqual(['idempotency_keys_scope_uq']);
    const [row] = await db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row!.n).toBe(1);
  });

  it('I3: the same key in another workspace or operation is independent', async () => {
    const other = await makeWorkspace(db);
    const key = randomUUID();
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db
      .insert(idempotencyKeys)
      .values({ workspaceId, operation: 'posts.create', key, fingerprint: 'f', expiresAt });
    await db
      .insert(idempotencyKeys)
      .values({ workspaceId: other.id, operation: 'posts.create', key, fingerprint: 'f', expiresAt });
    await db
      .insert(idempotencyKeys)
      .values({ workspaceId, operation: 'posts.update', key, fingerprint: 'f', expiresAt });
    const [row] = await db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row!.n).toBe(3);
  });

  it('I3: posts_workspace_idempotency_key_uq — one post per (workspace, key)', async () => {
    const key = randomUUID();
    const outcome = await race(() => makePost(db, workspaceId, key));
    expect(outcome.succeeded).toBe(1);
    expect([...outcome.constraints]).toEqual(['posts_workspace_idempotency_key_uq']);
  });

  it('I1: deliveries_post_account_part_uq — one delivery per post, account and thread part', async () => {
    const post = await makePost(db, workspaceId);
    const outcome = await race(() => makeDelivery(db, { workspaceId, postId: post.id, accountId }));
    expect(outcome.succeeded).toBe(1);
    expect([...outcome.constraints]).toEqual(['deliveries_post_account_part_uq']);
    const part2 = await race(() => makeDelivery(db, { workspaceId, postId: post.id, accountId, part: 2 }));
    expect(part2.succeeded).toBe(1);
    expect([...part2.constraints]).toEqual(['deliveries_post_account_part_uq']);
  });

  it('deliveries_part_ck and post_parts_position_ck — at most 25 parts', async () => {
    const post = await makePost(db, workspaceId);
    await expect(makeDelivery(db, { workspaceId, postId: post.id, accountId, part: 25 })).rejects.toMatchObject({
      cause: { constraint_name: 'deliveries_part_ck' },
    });
    await expect(db.insert(postParts).values({ postId: post.id, position: -1, text: 'x' })).rejects.toMatchObject({
      cause: { constraint_name: 'post_parts_position_ck' },
    });
  });

  it('claims_delivery_uq — one claim row per delivery', async () => {
    const post = await makePost(db, workspaceId);
    const delivery = await makeDelivery(db, { workspaceId, postId: post.id, accountId });
    const outcome = await race(() =>
      db
        .insert(claims)
        .values({ deliveryId: delivery.id, workerId: randomUUID(), leaseExpiresAt: new Date(Date.now() + 30_000) }),
    );
    expect(outcome.succeeded).toBe(1);
    expect([...outcome.constraints]).toEqual(['claims_delivery_uq']);
  });

  it('attempts_delivery_generation_uq — one platform call per claim generation', async () => {
    const post = await makePost(db, workspaceId);
    const delivery = await makeDelivery(db, { workspaceId, postId: post.id, accountId });
    const outcome = await race(() => db.insert(attempts).values({ deliveryId: delivery.id, generation: 1, accountId }));
    expect(outcome.succeeded).toBe(1);
    expect([...outcome.constraints]).toEqual(['attempts_delivery_generation_uq']);
  });

  it('posts without an idempotency key are not constrained by it', async () => {
    await Promise.all([makePost(db, workspaceId, null), makePost(db, workspaceId, null)]);
    const [row] = await db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.workspaceId, workspaceId)));
    expect(row!.n).toBeGreaterThanOrEqual(2);
  });

  it('indexes for due deliveries and deliveries by status exist', async () => {
    const rows = await db.execute<{ indexname: string }>(
      `select indexname from pg_indexes where tablename = 'deliveries'` as never,
    );
    const names = [...rows].map((r) => r.indexname);
    expect(names).toEqual(expect.arrayContaining(['deliveries_due_idx', 'deliveries_workspace_status_idx']));
  });
});
void deliveries;
