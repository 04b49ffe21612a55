import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, posts, reconciliations } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/lib/publishing/testing';
import { startTestSandbox, TEST_ENCRYPTION_KEY } from '@/lib/sandbox/testing/harness';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from './reconcile';

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 300 }));
const reconcileOptions = (overrides: Partial<ReconcileOptions> = {}): ReconcileOptions => ({
  workerId: `rec-${Math.random().toString(36).slice(2, 8)}`, batchSize: 20, leaseMs: 30_000, readTimeoutMs: 2_000, recheckDelayMs: 0,
  windowBeforeMs: 120_000, maxUnreadable: 3, releaseMarginMs: 1_000, mastodonKeyWindowMs: 55 * 60_000, encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url, ...overrides,
});
const reconcile = (overrides: Partial<ReconcileOptions> = {}) => reconcileAmbiguousDeliveries(db, reconcileOptions(overrides));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const checks = (id: string) => db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id)).orderBy(reconciliations.checkedAt);

async function ambiguousDelivery(platform: 'x' | 'mastodon', fault: 'timeoutAfterCommit' | 'timeoutBeforeCommit', scheduledAt?: Date) {
  const account = await sandbox.connectAccount(platform);
  await sandbox.setFaults(account.sandboxAccount.id, { [fault]: 1 });
  const [id] = await schedulePosts(db, { workspaceId: account.workspaceId, accountId: account.productAccountId, count: 1, label: sandbox.uniqueText(`${platform} ${fault}`), scheduledAt });
  await publish();
  expect((await status(id!)).status).toBe('ambiguous');
  await sandbox.setFaults(account.sandboxAccount.id, {}); // the platform is healthy again for the reads
  return { id: id!, account };
}

describe('reconciliation (DESIGN §7)', () => {
  it('found: an X post that landed despite the timeout is settled as sent with its id, from one stored check', async () => {
    const { id, account } = await ambiguousDelivery('x', 'timeoutAfterCommit');
    const summary = await reconcile();
    expect(summary.found).toBeGreaterThanOrEqual(1);
    const after = await status(id);
    expect(after.status).toBe('sent');
    expect(after.externalId).toBeTruthy();
    const [check] = await checks(id);
    expect(check).toMatchObject({ decision: 'found', strategy: 'x-timeline', matchedExternalId: after.externalId });
    expect(check!.readCount).toBeGreaterThanOrEqual(1);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('not found twice with time left: released, then published exactly once by the engine', async () => {
    const { id, account } = await ambiguousDelivery('x', 'timeoutBeforeCommit');
    await reconcile(); // first read: not found, recheck
    expect((await status(id)).status).toBe('ambiguous');
    await reconcile(); // second read: still not found → released
    expect((await status(id)).status).toBe('scheduled');
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck', 'released']);
    await publish();
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('a recheck waits for the read-lag delay before "not found" counts', async () => {
    const { id } = await ambiguousDelivery('x', 'timeoutBeforeCommit');
    await reconcile({ recheckDelayMs: 60_000 });
    await db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id)); // due again, but the delay has not passed
    await reconcile({ recheckDelayMs: 60_000 });
    expect((await status(id)).status).toBe('ambiguous');
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck', 'not_found_recheck']);
  });

  it('not found and too late: needs_review with the evidence, never republished', async () => {
    const { id, account } = await ambiguousDelivery('x', 'timeoutBeforeCommit');
    await db.execute(sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`);
    await reconcile();
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const last = (await checks(id)).at(-1)!;
    expect(last.decision).toBe('needs_review');
    expect(last.evidence).toHaveProperty('deadline');
    await publish();
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('an unreadable platform: rechecked, then needs_review after the limit', async () => {
    const { id } = await ambiguousDelivery('x', 'timeoutAfterCommit');
    const closed = 'http://127.0.0.1:1';
    for (let i = 0; i < 3; i++) {
      await reconcile({ origin: closed });
      await db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
    }
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id)).map((c) => c.decision)).toEqual(['unreadable', 'unreadable', 'needs_review']);
  });

  it('Mastodon: resending with the same Idempotency-Key returns the original status → sent with the original id, one copy', async () => {
    const { id, account } = await ambiguousDelivery('mastodon', 'timeoutAfterCommit');
    const [original] = await db.execute<{ id: string }>(sql`select id::text from sandbox.posts where account_id = ${account.sandboxAccount.id}`);
    await reconcile();
    const after = await status(id);
    expect(after.status).toBe('sent');
    expect(after.externalId).toBe(original!.id);
    expect((await checks(id))[0]).toMatchObject({ decision: 'found', strategy: 'mastodon-idempotency-key' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('two reconcilers racing decide each delivery once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await ambiguousDelivery('x', 'timeoutAfterCommit')).id);
    const summaries = await Promise.all([reconcile(), reconcile(), reconcile()]);
    expect(summaries.reduce((n, s) => n + s.checked, 0)).toBeGreaterThanOrEqual(ids.length);
    for (const id of ids) {
      expect((await status(id)).status).toBe('sent');
      expect(await checks(id)).toHaveLength(1);
    }
  });

  it('I5 — a stale reconciliation run (old generation) writes nothing', async () => {
    const { id } = await ambiguousDelivery('x', 'timeoutAfterCommit');
    const { recordReconcileDecision } = await import('@/db/queries/reconcile');
    const [{ generation }] = (await db.execute<{ generation: number }>(sql`select generation from claims where delivery_id = ${id}`)) as unknown as [{ generation: number }];
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    const late = await recordReconcileDecision(db, {
      deliveryId: id, generation, strategy: 'x-timeline', decision: 'released', status: 'scheduled', reason: 'late', evidence: {}, actor: 'stale',
    });
    expect(late).toBe(false);
    expect((await status(id)).status).toBe('sent');
    expect(await checks(id)).toHaveLength(1);
    void posts;
  });

  it('Mastodon past its lateness limit: no resend (it could publish late); the timeline read settles it', async () => {
    const { id, account } = await ambiguousDelivery('mastodon', 'timeoutAfterCommit');
    await db.execute(sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`);
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect((await checks(id))[0]).toMatchObject({ decision: 'found', strategy: 'mastodon-timeline' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('an admin\'s "publish now" on a late needs_review item publishes it once instead of marking it missed', async () => {
    const { id, account } = await ambiguousDelivery('x', 'timeoutBeforeCommit');
    await db.execute(sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`);
    await reconcile();
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const { resolveReviewItem } = await import('@/db/queries/review');
    const [{ workspaceId }] = (await db.select({ workspaceId: deliveries.workspaceId }).from(deliveries).where(eq(deliveries.id, id))) as [{ workspaceId: string }];
    const [admin] = await db.execute<{ id: string }>(sql`insert into users (email, name) values (${`admin-${id}@t.test`}, 'Admin') returning id`);
    expect((await resolveReviewItem(db, { workspaceId, deliveryId: id, actorUserId: admin!.id, resolution: { action: 'publish' } })).applied).toBe(true);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    // Repeating the decision changes nothing.
    expect((await resolveReviewItem(db, { workspaceId, deliveryId: id, actorUserId: admin!.id, resolution: { action: 'publish' } })).applied).toBe(false);
  });
});
