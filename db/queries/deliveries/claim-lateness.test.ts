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
  return delivery.id;
}

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
});
