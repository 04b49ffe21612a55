import { and, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { scheduleDueInBulk } from '@/testing/publisher';
import { claimDueDeliveries } from './claim';

const { db } = await createTestDatabase({ max: 4 });

/** A workspace with `count` deliveries due at `dueAt`, written in one statement (on one account). */
async function workspaceWithDue(count: number, dueAt: Date) {
  const workspace = await makeWorkspace(db);
  const account = await makeAccount(db, workspace.id, 'mastodon');
  await scheduleDueInBulk(db, {
    workspaceId: workspace.id,
    accountIds: [account.id],
    count,
    label: `fair ${workspace.slug} `,
    firstDueAt: dueAt,
    stepMs: 0,
  });
  return workspace.id;
}

async function claimedByWorkspace(ids: string[]) {
  const rows = await db
    .select({ workspaceId: deliveries.workspaceId, n: count() })
    .from(deliveries)
    .where(inArray(deliveries.id, ids))
    .groupBy(deliveries.workspaceId);
  return new Map(rows.map((r) => [r.workspaceId, r.n]));
}

async function dueNow() {
  const [row] = await db
    .select({ n: count() })
    .from(deliveries)
    .where(and(eq(deliveries.status, 'scheduled'), lte(deliveries.dueAt, sql`now()`)));
  return row!.n;
}

describe('claims are fair across workspaces (the top of the hour)', () => {
  it('a claim takes every workspace’s first turn before anyone’s second: the small ones are not held back by the big one', async () => {
    const at = new Date(Date.now() - 60_000);
    // The big workspace's rows are written first and are as due as the others: by due time alone it would fill the
    // claim (its rows come first in the index's order of equal times).
    const big = await workspaceWithDue(300, at);
    const small = [await workspaceWithDue(3, at), await workspaceWithDue(3, at), await workspaceWithDue(3, at)];

    const first = await claimDueDeliveries(db, { workerId: 'fair-1', limit: 20, leaseMs: 60_000 });
    expect(first).toHaveLength(20);
    const byWorkspace = await claimedByWorkspace(first.map((c) => c.deliveryId));
    for (const id of small) expect(byWorkspace.get(id), 'each small workspace: all three in the first claim').toBe(3);
    expect(byWorkspace.get(big)).toBe(11);

    // Only the big one is left: the next claims are all its own, until none is due.
    const second = await claimDueDeliveries(db, { workerId: 'fair-2', limit: 500, leaseMs: 60_000 });
    expect(second).toHaveLength(289);
    expect((await claimedByWorkspace(second.map((c) => c.deliveryId))).get(big)).toBe(289);
  });

  it('within a workspace the earliest due goes first, and an overdue one in another workspace is not passed over', async () => {
    const now = Date.now();
    const a = await workspaceWithDue(5, new Date(now - 10_000));
    // Half an hour overdue: within the default lateness limit (an hour), so still to be published, not missed.
    const late = await workspaceWithDue(1, new Date(now - 1_800_000));
    const b = await workspaceWithDue(5, new Date(now - 5_000));
    const claimed = await claimDueDeliveries(db, { workerId: 'fair-3', limit: 3, leaseMs: 60_000 });
    const byWorkspace = await claimedByWorkspace(claimed.map((c) => c.deliveryId));
    expect(Object.fromEntries([a, late, b].map((id) => [id, byWorkspace.get(id) ?? 0]))).toEqual({
      [a]: 1,
      [late]: 1,
      [b]: 1,
    });
  });

  it('two claimers racing over a spike split it without sharing a delivery', async () => {
    const at = new Date(Date.now() - 1_000);
    await workspaceWithDue(120, at);
    await workspaceWithDue(40, at);
    const due = await dueNow(); // with what the earlier tests left
    expect(due).toBeGreaterThan(160);
    expect(due).toBeLessThanOrEqual(200);
    const [one, two] = await Promise.all([
      claimDueDeliveries(db, { workerId: 'race-1', limit: 100, leaseMs: 60_000 }),
      claimDueDeliveries(db, { workerId: 'race-2', limit: 100, leaseMs: 60_000 }),
    ]);
    const ids = [...one, ...two].map((c) => c.deliveryId);
    expect(new Set(ids).size, 'no delivery claimed twice').toBe(ids.length);
    expect(ids, 'together they claimed everything due').toHaveLength(due);
    expect(one.length, 'each side of the race claimed some').toBeGreaterThan(0);
    expect(two.length, 'each side of the race claimed some').toBeGreaterThan(0);
  });

  it('a claim says when more was due than it could take, so the publisher claims again at once', async () => {
    const at = new Date(Date.now() - 1_000);
    await workspaceWithDue(250, at);
    const left = await dueNow(); // with what the earlier tests left
    const first = await claimDueDeliveries(db, { workerId: 'more-1', limit: 200, leaseMs: 60_000 });
    expect(first).toHaveLength(200);
    expect(first.every((c) => c.contended)).toBe(true);
    const second = await claimDueDeliveries(db, { workerId: 'more-2', limit: 200, leaseMs: 60_000 });
    expect(second).toHaveLength(left - 200);
    expect(
      second.every((c) => !c.contended),
      'all that was due fitted in this one',
    ).toBe(true);
  });
});
