import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  claimAmbiguousDeliveries,
  disconnectAccount,
  recordReconcileDecision,
  resolveReviewItem,
} from '@/db/queries/deliveries';
import { attempts, auditLog, deliveries, reconciliations, socialAccounts } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { attemptCount, deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { deleteExtraCopies } from '@/lib/review/delete-extra-copies';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import type { FaultSettings } from '@/sandbox/store/types';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from './reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

const CALL_TIMEOUT_MS = 300;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
const reconcile = (overrides: Partial<ReconcileOptions> = {}) =>
  reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, overrides));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const checks = (id: string) =>
  db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id)).orderBy(reconciliations.checkedAt);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
/** Earlier tests' deliveries that are still being checked must not be taken by a test that counts what it took. */
const parkOthers = (ids: string[]) =>
  db.execute(
    sql`update deliveries set due_at = now() + interval '1 hour' where status = 'ambiguous' and not (id = any(${`{${ids.join(',')}}`}::uuid[]))`,
  );

async function ambiguousDelivery(
  platform: 'x' | 'mastodon',
  faults: Partial<FaultSettings>,
  options: { scheduledAt?: Date; healthyAfter?: boolean } = {},
) {
  const account = await sandbox.connectAccount(platform);
  await sandbox.setFaults(account.sandboxAccount.id, faults);
  const text = sandbox.uniqueText(`${platform} ${JSON.stringify(faults)}`);
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label: text,
    scheduledAt: options.scheduledAt,
  });
  await publish();
  expect((await status(id!)).status).toBe('ambiguous');
  // The platform answers again for the reads, keeping its profile (and any slow processing already under way).
  if (options.healthyAfter !== false) await sandbox.setFaults(account.sandboxAccount.id, { profile: faults.profile });
  return { id: id!, account, text: `${text} #0` };
}

describe('reconciliation reads, never resends (docs/architecture.md#reconciliation)', () => {
  it('found: an X post that landed despite the timeout is settled as sent with its id, from one stored check', async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutAfterCommit: 1 });
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

  it("Mastodon: settled by reading the account's statuses; the platform is never called to publish again", async () => {
    const { id, account } = await ambiguousDelivery('mastodon', { timeoutAfterCommit: 1 });
    const [original] = await db.execute<{ id: string }>(
      sql`select id::text from sandbox.posts where account_id = ${account.sandboxAccount.id}`,
    );
    await reconcile();
    const after = await status(id);
    expect(after.status).toBe('sent');
    expect(after.externalId).toBe(original!.id);
    expect((await checks(id))[0]).toMatchObject({ decision: 'found', strategy: 'mastodon-timeline' });
    expect(await attemptCount(db, id)).toBe(1);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('not found twice with time left: released, then published exactly once by the engine', async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutBeforeCommit: 1 });
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
    const { id } = await ambiguousDelivery('x', { timeoutBeforeCommit: 1 });
    await reconcile({ recheckDelayMs: 60_000 });
    await dueNow(id); // due again, but the delay has not passed
    await reconcile({ recheckDelayMs: 60_000 });
    expect((await status(id)).status).toBe('ambiguous');
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck', 'not_found_recheck']);
  });

  it('no read before the last attempt start + call timeout + the processing allowance', async () => {
    const { id, account } = await ambiguousDelivery('mastodon', { timeoutBeforeCommit: 1 });
    const [attempt] = await db.select().from(attempts).where(eq(attempts.deliveryId, id));
    await reconcile({
      callTimeoutMs: CALL_TIMEOUT_MS,
      allowanceMs: allowanceFor(0, { mastodon: 60_000 }),
    });
    const [check] = await checks(id);
    expect(check).toMatchObject({ decision: 'waiting', readCount: null });
    expect(check!.nextCheckAt!.getTime()).toBe(attempt!.startedAt.getTime() + CALL_TIMEOUT_MS + 60_000);
    expect((await status(id)).status).toBe('ambiguous');
    expect((await status(id)).dueAt.getTime()).toBe(check!.nextCheckAt!.getTime());
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('the publisher schedules the first read after the allowance too', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('first read'),
    });
    await publishDueDeliveries(
      db,
      testPublisherOptions(sandbox.url, {
        callTimeoutMs: CALL_TIMEOUT_MS,
        allowanceMs: allowanceFor(0, { x: 45_000 }),
      }),
    );
    const [attempt] = await db.select().from(attempts).where(eq(attempts.deliveryId, id!));
    // Counted from the call's own start, which follows the attempt row's commit by a few milliseconds.
    const dueAt = (await status(id!)).dueAt.getTime();
    expect(dueAt).toBeGreaterThanOrEqual(attempt!.startedAt.getTime() + CALL_TIMEOUT_MS + 45_000);
    expect(dueAt).toBeLessThan(attempt!.startedAt.getTime() + CALL_TIMEOUT_MS + 46_000);
  });
});

describe("weak platforms: the guard is ours, not the platform's (docs/architecture.md#profiles-and-faults)", () => {
  const PROCESSING_MS = 1_200; // > the 300 ms call timeout: the call times out while the post is still being made
  const ALLOWANCE = allowanceFor(1_500);
  const weak = [
    ['mastodon', 'mastodon-legacy'],
    ['mastodon', 'mastodon-nokey'],
    ['mastodon', 'plain'],
    ['x', 'x-nodedupe'],
    ['x', 'plain'],
  ] as const;

  for (const [platform, profile] of weak) {
    it(`I1 — ${profile} (${platform}) with slow processing: the reconciler waits it out and finds the one copy`, async () => {
      const { id, account, text } = await ambiguousDelivery(
        platform,
        { profile, processingMs: PROCESSING_MS },
        { healthyAfter: false },
      );
      const options = { callTimeoutMs: CALL_TIMEOUT_MS, allowanceMs: ALLOWANCE };
      await reconcile(options);
      expect((await checks(id)).map((c) => c.decision)).toEqual(['waiting']);
      await sleep(CALL_TIMEOUT_MS + ALLOWANCE.x);
      await dueNow(id);
      await reconcile(options);
      expect((await status(id)).status).toBe('sent');
      expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
      expect(await attemptCount(db, id)).toBe(1);
    });
  }

  it('read lag: a post that shows up in listings late is found by the second read, not published again', async () => {
    const { id, account, text } = await ambiguousDelivery(
      'x',
      { profile: 'x-nodedupe', timeoutAfterCommit: 1, readLagMs: 1_000 },
      { healthyAfter: false },
    );
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'x-nodedupe', readLagMs: 1_000 });
    await reconcile({ recheckDelayMs: 1_500 });
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck']);
    await sleep(1_500);
    await dueNow(id);
    await reconcile({ recheckDelayMs: 1_500 });
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck', 'found']);
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });

  it('copies we caused are counted: two copies → needs_review listing both, never "sent"', async () => {
    const { id, account, text } = await ambiguousDelivery('mastodon', { profile: 'plain', timeoutAfterCommit: 1 });
    // A second copy of the same text on the account, as an earlier attempt could have left it.
    const again = await account.client.publish({ text, kind: 'post', idempotencyKey: id, timeoutMs: 2_000 });
    expect(again.outcome).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(2);
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await checks(id);
    expect(check!.decision).toBe('needs_review');
    const copies = check!.evidence.copies as { id: string }[];
    expect(copies).toHaveLength(2);
    expect(copies.map((c) => c.id)).toContain(again.externalId);
  });

  it('"Delete the extra copies" keeps the oldest, deletes the rest on the platform, marks sent once (repeat and race safe)', async () => {
    const { id, account, text } = await ambiguousDelivery('x', { profile: 'x-nodedupe', timeoutAfterCommit: 1 });
    await account.client.publish({ text, kind: 'post', idempotencyKey: id, timeoutMs: 2_000 });
    await account.client.publish({ text, kind: 'post', idempotencyKey: id, timeoutMs: 2_000 });
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const copies = (await checks(id))[0]!.evidence.copies as { id: string }[];
    expect(copies).toHaveLength(3);
    const [admin] = await db.execute<{ id: string }>(
      sql`insert into users (email, name) values (${`admin-${id}@t.test`}, 'Admin') returning id`,
    );
    const params = {
      workspaceId: account.workspaceId,
      deliveryId: id,
      actorUserId: admin!.id,
      encryptionKey: TEST_ENCRYPTION_KEY,
      origin: sandbox.url,
    };
    const both = await Promise.all([deleteExtraCopies(db, params), deleteExtraCopies(db, params)]);
    // Exactly one click changed the delivery; the other found it done (deletes are repeatable, the status change is not).
    expect(both.filter((r) => r.ok && r.applied)).toHaveLength(1);
    expect(
      both.filter((r) => !(r.ok && r.applied)).every((r) => (r.ok && !r.applied) || (!r.ok && r.status === 409)),
    ).toBe(true);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    const after = await status(id);
    expect(after).toMatchObject({ status: 'sent', externalId: copies[0]!.id });
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'review.delete_extras'))),
    ).toHaveLength(1);
    const late = await deleteExtraCopies(db, params);
    expect(late).toMatchObject({ ok: false, status: 409 });
  });

  it('a delivery never gets more than its release budget: after that, an admin decides', async () => {
    const { id, account } = await ambiguousDelivery(
      'x',
      { profile: 'x-nodedupe', timeoutBeforeCommit: 1 },
      { healthyAfter: false },
    );
    await reconcile();
    await reconcile({ maxReleases: 1 });
    expect((await status(id)).status).toBe('scheduled'); // released once, after its proof of absence
    await publish(); // still failing before commit: ambiguous again
    expect((await status(id)).status).toBe('ambiguous');
    await reconcile({ maxReleases: 1 });
    await reconcile({ maxReleases: 1 });
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id)).map((c) => c.decision)).toEqual([
      'not_found_recheck',
      'released',
      'not_found_recheck',
      'needs_review',
    ]);
    expect(await attemptCount(db, id)).toBe(2);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it("the reads for one delivery end before the reconciler's lease does", async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutAfterCommit: 1 });
    await sandbox.setFaults(account.sandboxAccount.id, { latencyMs: 4_000 }); // every read is slow
    const started = Date.now();
    await reconcile({ leaseMs: 6_500, readTimeoutMs: 5_000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(6_500 - 2_000);
    expect((await checks(id))[0]!.decision).toBe('unreadable');
  });
});

describe('reconciliation decisions', () => {
  it('not found and too late: needs_review with the evidence, never republished', async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutBeforeCommit: 1 });
    await db.execute(
      sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`,
    );
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
    const { id } = await ambiguousDelivery('x', { timeoutAfterCommit: 1 });
    const closed = 'http://127.0.0.1:1';
    for (let i = 0; i < 3; i++) {
      await reconcile({ origin: closed });
      await dueNow(id);
    }
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id)).map((c) => c.decision)).toEqual(['unreadable', 'unreadable', 'needs_review']);
  });

  it('two reconcilers racing decide each delivery once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await ambiguousDelivery('x', { timeoutAfterCommit: 1 })).id);
    await parkOthers(ids);
    const summaries = await Promise.all([
      reconcile({ batchSize: 1 }),
      reconcile({ batchSize: 1 }),
      reconcile({ batchSize: 1 }),
    ]);
    // Every delivery was decided by exactly one of them, and more than one of them took part.
    expect(summaries.reduce((n, s) => n + s.checked, 0)).toBe(ids.length);
    expect(summaries.filter((s) => s.checked > 0).length).toBeGreaterThanOrEqual(2);
    for (const id of ids) {
      expect((await status(id)).status).toBe('sent');
      expect(await checks(id)).toHaveLength(1);
    }
  });

  it('I4 — a reconciler whose generation was superseded writes nothing (only the generation differs)', async () => {
    const { id } = await ambiguousDelivery('x', { timeoutAfterCommit: 1 });
    await parkOthers([id]);
    const [stale] = await claimAmbiguousDeliveries(db, { workerId: 'stale', limit: 1, leaseMs: 1 });
    expect(stale!.deliveryId).toBe(id);
    await sleep(5);
    const [fresh] = await claimAmbiguousDeliveries(db, { workerId: 'fresh', limit: 1, leaseMs: 30_000 });
    expect(fresh!.generation).toBe(stale!.generation + 1);
    // Everything else the fence checks still holds: the delivery is ambiguous and the claim is not released.
    const [claimRow] = await db.execute<{ released_at: Date | null }>(
      sql`select released_at from claims where delivery_id = ${id}`,
    );
    expect(claimRow!.released_at).toBeNull();
    const decision = {
      deliveryId: id,
      strategy: 'x-timeline',
      decision: 'found' as const,
      status: 'sent' as const,
      reason: 'test',
      externalId: '1',
      evidence: {},
      actor: 'test',
    };
    expect(await recordReconcileDecision(db, { ...decision, generation: stale!.generation })).toBe(false);
    expect((await status(id)).status).toBe('ambiguous');
    expect(await checks(id)).toHaveLength(0);
    expect(await recordReconcileDecision(db, { ...decision, generation: fresh!.generation })).toBe(true);
    expect((await status(id)).status).toBe('sent');
  });

  it('Mastodon past its lateness limit: settled by reading the statuses, nothing resent', async () => {
    const { id, account } = await ambiguousDelivery('mastodon', { timeoutAfterCommit: 1 });
    await db.execute(
      sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`,
    );
    await reconcile();
    expect((await status(id)).status).toBe('sent');
    expect((await checks(id))[0]).toMatchObject({ decision: 'found', strategy: 'mastodon-timeline' });
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('an admin\'s "publish now" on a late needs_review item publishes it once, and the reconciler honours the restarted window', async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutBeforeCommit: 1 }, { healthyAfter: false });
    await db.execute(
      sql`update posts set scheduled_at = now() - interval '2 hours' where id = (select post_id from deliveries where id = ${id})`,
    );
    await reconcile();
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [{ workspaceId }] = (await db
      .select({ workspaceId: deliveries.workspaceId })
      .from(deliveries)
      .where(eq(deliveries.id, id))) as [{ workspaceId: string }];
    const [admin] = await db.execute<{ id: string }>(
      sql`insert into users (email, name) values (${`admin-${id}@t.test`}, 'Admin') returning id`,
    );
    expect(
      (
        await resolveReviewItem(db, {
          workspaceId,
          deliveryId: id,
          actorUserId: admin!.id,
          resolution: { action: 'publish' },
        })
      ).applied,
    ).toBe(true);
    await publish(); // the platform still fails before commit: ambiguous again, inside the restarted window
    expect((await status(id)).status).toBe('ambiguous');
    await reconcile();
    await reconcile();
    // Released (time remains from the admin's decision), not "too late" from the old scheduled time.
    expect((await checks(id)).map((c) => c.decision).slice(-2)).toEqual(['not_found_recheck', 'released']);
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    // Repeating the decision changes nothing.
    expect(
      (
        await resolveReviewItem(db, {
          workspaceId,
          deliveryId: id,
          actorUserId: admin!.id,
          resolution: { action: 'publish' },
        })
      ).applied,
    ).toBe(false);
  });
});

describe('disconnecting an account', () => {
  it('holds its scheduled deliveries in needs_review, wipes its token and never calls the platform with it again', async () => {
    const account = await sandbox.connectAccount('x');
    const ids = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 3,
      label: sandbox.uniqueText('held'),
    });
    const result = await disconnectAccount(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      actor: 'user:test',
    });
    expect(result).toEqual({ id: account.productAccountId, held: 3 });
    const [row] = await db
      .select({ sealed: socialAccounts.credentialsEncrypted })
      .from(socialAccounts)
      .where(eq(socialAccounts.id, account.productAccountId));
    expect(row!.sealed).toBe('');
    await publish();
    for (const id of ids) {
      expect((await status(id)).status).toBe('needs_review');
      expect(await attemptCount(db, id)).toBe(0);
    }
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('an ambiguous delivery of a disconnected account goes to review without a read', async () => {
    const { id, account } = await ambiguousDelivery('x', { timeoutAfterCommit: 1 });
    await disconnectAccount(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      actor: 'user:test',
    });
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id))[0]).toMatchObject({
      decision: 'needs_review',
      readCount: null,
      evidence: { accountDisconnected: true },
    });
  });
});
