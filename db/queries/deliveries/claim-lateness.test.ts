import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, workspaces } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { claimDueDeliveries } from './claim';
import { markMissedDeliveries } from './missed';

const { db } = await createTestDatabase({ max: 4 });
const claim = () => claimDueDeliveries(db, { workerId: 'lateness-test', limit: 50, leaseMs: 60_000 });

/** A scheduled delivery due now whose post was due `minutesAgo`, in a workspace with a 10-minute lateness limit. */
async function dueDelivery(minutesAgo: number, attemptCount: number) {
  const workspace = await makeWorkspace(db);
  await db.update(workspaces).set({ latenessLimitSeconds: 600 }).where(eq(workspaces.id, workspace.id));
  const account = await makeAccount(db, workspace.id, 'mastodon');
  const post = await makePost(db, workspace.id);
  await db.execute(
    sql`update posts set scheduled_at = now() - make_interval(mins => ${minutesAgo}) where id = ${post.id}`,
  );
  const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  await db.update(deliveries).set({ attemptCount }).where(eq(deliveries.id, delivery.id));
  // Never claimed: due at its post's time, as every path that schedules one sets it (markMissedDeliveries).
  if (attemptCount === 0)
    await db.execute(sql`update deliveries set due_at = (select scheduled_at from posts where id = ${post.id})
      where id = ${delivery.id}`);
  return delivery.id;
}

const statusOf = async (id: string) =>
  (await db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.id, id)))[0]!.status;

describe('the claim never takes a delivery back in scheduled past its lateness limit', () => {
  it('claimed before, released after its limit (no mark-missed in between): not claimed; mark-missed then settles it', async () => {
    const late = await dueDelivery(15, 1);
    const inTime = await dueDelivery(5, 1);
    const claimed = (await claim()).map((c) => c.deliveryId);
    expect(claimed, 'the one still within its limit goes out').toContain(inTime);
    expect(claimed, 'the late one is left for mark-missed, never published late').not.toContain(late);
    expect(await markMissedDeliveries(db)).toBeGreaterThanOrEqual(1);
    const [row] = await db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.id, late));
    expect(row!.status).toBe('missed');
  });

  it('never claimed, past its limit (mark-missed runs apart from the claims): not claimed; mark-missed then settles it', async () => {
    const late = await dueDelivery(15, 0);
    const inTime = await dueDelivery(5, 0);
    const claimed = (await claim()).map((c) => c.deliveryId);
    expect(claimed, 'the one still within its limit goes out').toContain(inTime);
    expect(claimed, 'the late one is never published late, whoever marks it').not.toContain(late);
    expect(await statusOf(late)).toBe('scheduled');
    expect(await markMissedDeliveries(db)).toBeGreaterThanOrEqual(1);
    expect(await statusOf(late)).toBe('missed');
  });

  it('the workspace’s own limit decides: past the shortest limit of any workspace but within its own, it goes out', async () => {
    // This test's other workspaces have 10 minutes; this one keeps the default hour.
    const workspace = await makeWorkspace(db);
    const account = await makeAccount(db, workspace.id, 'mastodon');
    const post = await makePost(db, workspace.id);
    await db.execute(sql`update posts set scheduled_at = now() - interval '15 minutes' where id = ${post.id}`);
    const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
    await db.execute(sql`update deliveries set due_at = now() - interval '15 minutes' where id = ${delivery.id}`);
    await markMissedDeliveries(db);
    expect(await statusOf(delivery.id), 'not missed: an hour is its limit').toBe('scheduled');
    expect((await claim()).map((c) => c.deliveryId)).toContain(delivery.id);
  });
});
