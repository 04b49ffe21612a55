import { and, eq, sql } from 'drizzle-orm';
import { allowanceFor } from '@/lib/reconcile/allowance-map';
import { describe, expect, it } from 'vitest';
import { cancelScheduledDeliveries, GAVE_UP_COPY_REASON, recordLateCopy } from '@/db/queries/deliveries';
import { getCopiesUnderReview } from '@/db/queries/review';
import {
  attempts,
  auditLog,
  deliveries,
  deliveryEvents,
  hostAllowances,
  lateCopyWatches,
  notifications,
  reconciliations,
  webhookEvents,
  webhookMessages,
} from '@/db/schema';
import { parseAllowList } from '@/lib/net/outbound-guard';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { readAccounts } from '@/lib/reads/accounts';
import { readPublicationReport } from '@/lib/reports/publication';
import { deleteExtraCopies } from '@/lib/review/delete-extra-copies';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { createEndpoint } from '@/lib/webhooks/endpoints';
import { effectiveAllowanceMs } from './allowance';
import { reconcileAmbiguousDeliveries } from './reconcile';
import { testReconcileOptions, testWatchOptions } from '@/testing/reconciler';
import { watchForLateCopies } from './watch';

// A late copy (docs/architecture.md#late-copies) at a tenth of the real scale: a server busy for 6 s (100 s in the
// incident) against a 1 s call timeout and a 2 s allowance (60 s). Both reads find nothing, the delivery is published
// again, then the original lands.
const CALL_TIMEOUT_MS = 1_000;
const PROCESSING_MS = 6_000;
const ALLOWANCE = allowanceFor(2_000);
const RECHECK_MS = 300;
const DELAYS_MS = [4_000, 9_000];

const sandbox = await startTestSandbox({ hangMs: 10_000 });
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
const reconcile = () =>
  reconcileAmbiguousDeliveries(
    db,
    testReconcileOptions(sandbox.url, {
      callTimeoutMs: CALL_TIMEOUT_MS,
      allowanceMs: ALLOWANCE,
      recheckDelayMs: RECHECK_MS,
    }),
  );
const watch = () => watchForLateCopies(db, testWatchOptions(sandbox.url, { delaysMs: DELAYS_MS }));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));
const checks = (id: string) =>
  db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id)).orderBy(reconciliations.checkedAt);
const watchOf = async (id: string) =>
  (await db.select().from(lateCopyWatches).where(eq(lateCopyWatches.deliveryId, id)))[0];

/** Runs the reconciler until the delivery leaves `ambiguous`, waiting out its quiet period and recheck delay. */
async function settle(id: string) {
  for (let i = 0; i < 20 && (await status(id)).status === 'ambiguous'; i++) {
    await sleepUntil((await status(id)).dueAt.getTime() + 20);
    await reconcile();
  }
}

/**
 * The incident: a `mastodon-nokey` account (the key is ignored) whose create lands after the allowance. The
 * delivery is released, published again and shown sent; the late original appears later.
 */
async function republishedBeforeTheLateOriginal() {
  const account = await sandbox.connectAccount('mastodon');
  await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', processingMs: PROCESSING_MS });
  const label = sandbox.uniqueText('late original');
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label,
  });
  await publish();
  expect((await status(id!)).status).toBe('ambiguous');
  // The server answers quickly again, but the first create is still being made (it lands PROCESSING_MS after the call).
  await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
  await settle(id!);
  expect((await checks(id!)).map((c) => c.decision)).toEqual(['waiting', 'not_found_recheck', 'released']);
  await publish();
  const sent = await status(id!);
  expect(sent.status).toBe('sent'); // shown sent: today nothing would ever look again
  const text = `${label} #0`;
  const watchRow = await watchOf(id!);
  expect(watchRow).toMatchObject({ checksDone: 0, endedAt: null });
  return { id: id!, account, text, republishedId: sent.externalId!, watchStartedAt: watchRow!.startedAt.getTime() };
}

async function webhookEndpointFor(workspaceId: string) {
  const result = await createEndpoint(
    db,
    {
      workspaceId,
      url: 'http://localhost:9/hook',
      events: ['delivery.duplicate_detected'],
      encryptionKey: TEST_ENCRYPTION_KEY,
    },
    { allow: parseAllowList('localhost') },
  );
  if (result.kind !== 'created') throw new Error(result.message);
  return result.endpoint;
}

const duplicateEvents = (deliveryId: string) =>
  db
    .select({ id: webhookEvents.id, data: webhookEvents.data })
    .from(webhookEvents)
    .where(
      and(eq(webhookEvents.type, 'delivery.duplicate_detected'), eq(webhookEvents.subject, `delivery:${deliveryId}`)),
    );

describe('the watch for late copies (docs/architecture.md#late-copies)', () => {
  it('I1 — a create landing after the allowance, key ignored: detected within the watch, in review with both copies, event and notification once, the host allowance rose', async () => {
    const { id, account, text, republishedId, watchStartedAt } = await republishedBeforeTheLateOriginal();
    const endpoint = await webhookEndpointFor(account.workspaceId);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBeLessThanOrEqual(2);

    for (const delay of DELAYS_MS) {
      if ((await status(id)).status !== 'sent') break;
      await sleepUntil(watchStartedAt + delay + 50);
      await watch();
    }
    const after = await status(id);
    expect(after.status).toBe('needs_review');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(2);

    const detection = (await checks(id)).find((c) => c.decision === 'late_copy')!;
    const copies = detection.evidence.copies as { id: string; createdAt: string; url: string | null }[];
    expect(copies).toHaveLength(2);
    expect(copies.map((c) => c.id)).toContain(republishedId);
    expect(copies[0]!.createdAt <= copies[1]!.createdAt).toBe(true);
    // The review item lists both copies (the latest check is the detection).
    expect((await getCopiesUnderReview(db, { workspaceId: account.workspaceId, deliveryId: id }))!.copies).toEqual(
      copies,
    );
    const [event] = await db.execute<{ reason: string }>(
      sql`select reason from delivery_events where delivery_id = ${id} order by id desc limit 1`,
    );
    expect(event!.reason).toBe('A late copy appeared');
    expect(await watchOf(id)).toMatchObject({ outcome: 'late_copy' });

    // One event and one message to the subscribed endpoint; one notification (and its fan-out).
    const events = await duplicateEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ deliveryId: id, externalId: republishedId, copies });
    expect(await db.select().from(webhookMessages).where(eq(webhookMessages.endpointId, endpoint.id))).toHaveLength(1);
    const notified = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.deliveryId, id), eq(notifications.kind, 'late_copy')));
    expect(notified).toHaveLength(1);

    // The publication report counts the incident.
    const report = (await readPublicationReport(db, {
      workspaceId: account.workspaceId,
      range: { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) },
      origin: sandbox.url,
    }))!;
    expect(report.incidents.filter((i) => i.kind === 'late_copy')).toEqual([
      expect.objectContaining({ text, detail: expect.stringContaining('A late copy appeared') }),
    ]);

    // Nothing more: later passes find no open watch.
    await watch();
    expect(await duplicateEvents(id)).toHaveLength(1);

    // The host's allowance rose to the delay observed: the late copy's creation minus the first call's start.
    const [first] = await db.select().from(attempts).where(eq(attempts.deliveryId, id)).orderBy(attempts.startedAt);
    const late = copies.find((c) => c.id !== republishedId)!;
    const [learned] = await db.select().from(hostAllowances).where(eq(hostAllowances.workspaceId, account.workspaceId));
    expect(learned).toMatchObject({ provider: 'mastodon', host: 'sandbox', source: 'late_copy' });
    // To the millisecond: the attempt's start is stored in microseconds, which a JS Date truncates.
    expect(
      Math.abs(learned!.observedWorstMs - (Date.parse(late.createdAt) - first!.startedAt.getTime())),
    ).toBeLessThanOrEqual(1);
    expect(learned!.observedWorstMs).toBeGreaterThanOrEqual(PROCESSING_MS - 100);
    const effective = effectiveAllowanceMs(ALLOWANCE.mastodon, learned!, 15 * 60_000);
    expect(effective).toBeGreaterThan(PROCESSING_MS);

    // The accounts page shows it.
    const [listed] = await readAccounts(db, {
      workspaceId: account.workspaceId,
      allowance: { configuredMs: ALLOWANCE, ceilingMs: 15 * 60_000 },
    });
    expect(listed!.processingAllowance).toMatchObject({
      configuredMs: 2_000,
      effectiveMs: effective,
      learnedMs: learned!.observedWorstMs,
      learnedFrom: 'late_copy',
      ceilingMs: 15 * 60_000,
    });

    // A second delivery to the same host waits the learned allowance before its first read.
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', timeoutAfterCommit: 1 });
    const [second] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('same host'),
    });
    await publish();
    expect((await status(second!)).status).toBe('ambiguous');
    await reconcile();
    const [waiting] = await checks(second!);
    const [call] = await db.select().from(attempts).where(eq(attempts.deliveryId, second!));
    expect(waiting).toMatchObject({ decision: 'waiting' });
    expect(waiting!.nextCheckAt!.getTime()).toBe(call!.startedAt.getTime() + CALL_TIMEOUT_MS + effective);

    // "Delete the extra copies" removes the later copy and keeps the earlier one, once, audited.
    const [admin] = await db.execute<{ id: string }>(
      sql`insert into users (email, name) values (${`admin-${id}@t.test`}, 'Admin') returning id`,
    );
    const deleted = await deleteExtraCopies(db, {
      workspaceId: account.workspaceId,
      deliveryId: id,
      actorUserId: admin!.id,
      encryptionKey: TEST_ENCRYPTION_KEY,
      origin: sandbox.url,
    });
    expect(deleted).toMatchObject({ ok: true, applied: true, kept: copies[0]!.id, deleted: [copies[1]!.id] });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await status(id)).toMatchObject({ status: 'sent', externalId: copies[0]!.id });
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'review.delete_extras'))),
    ).toHaveLength(1);
    // Sent again by the admin: the one watch per delivery is over, none starts again.
    expect(await db.select().from(lateCopyWatches).where(eq(lateCopyWatches.deliveryId, id))).toHaveLength(1);
  });

  it('two watchers racing at the due step detect the late copy once; a stale watcher writes nothing', async () => {
    const { id, account, watchStartedAt } = await republishedBeforeTheLateOriginal();
    await webhookEndpointFor(account.workspaceId);
    await sleepUntil(watchStartedAt + DELAYS_MS[1]! + 50); // both steps due; the late original has landed
    const summaries = await Promise.all([watch(), watch(), watch()]);
    expect(summaries.reduce((n, s) => n + s.lateCopies, 0)).toBe(1);
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id)).filter((c) => c.decision === 'late_copy')).toHaveLength(1);
    expect(await duplicateEvents(id)).toHaveLength(1);
    const [{ n }] = (await db.execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where delivery_id = ${id} and kind = 'late_copy'`,
    )) as unknown as [{ n: number }];
    expect(n).toBe(1);
    const watchRow = (await watchOf(id))!;
    const stale = await recordLateCopy(db, {
      deliveryId: id,
      generation: watchRow.generation - 1,
      step: watchRow.checksDone,
      strategy: 'mastodon-watch',
      windowStart: new Date(),
      windowEnd: new Date(),
      readCount: 2,
      copies: [],
      from: 'sent',
      evidence: {},
      actor: 'stale',
    });
    expect(stale).toBeNull();
    expect(await duplicateEvents(id)).toHaveLength(1);
  });

  it('a delivery without a release is never watched (sent at once, or found by the reconciler)', async () => {
    const account = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
    const [direct] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('direct'),
    });
    await publish();
    expect((await status(direct!)).status).toBe('sent');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', timeoutAfterCommit: 1 });
    const [found] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('found'),
    });
    await publish();
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
    await settle(found!);
    expect((await status(found!)).status).toBe('sent');
    expect((await checks(found!)).map((c) => c.decision)).toContain('found');
    expect(await watchOf(direct!)).toBeUndefined();
    expect(await watchOf(found!)).toBeUndefined();
    // The found post taught the host how long it took (within the allowance: nothing raised).
    const [learned] = await db.select().from(hostAllowances).where(eq(hostAllowances.workspaceId, account.workspaceId));
    expect(learned).toMatchObject({ source: 'found' });
    expect(learned!.observedWorstMs).toBeLessThan(CALL_TIMEOUT_MS + 500);
  });

  it('Bluesky (record key): a republished delivery cannot hold a second record, so its watch ends without a read', async () => {
    const account = await sandbox.connectAccount('bluesky');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutBeforeCommit: 1 });
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('record key'),
    });
    await publish();
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await settle(id!);
    expect((await checks(id!)).map((c) => c.decision)).toEqual(['released']);
    await publish();
    expect((await status(id!)).status).toBe('sent');
    expect(await watchOf(id!)).toMatchObject({ endedAt: null });
    await watchForLateCopies(db, testWatchOptions(sandbox.url, { delaysMs: [1] }));
    expect(await watchOf(id!)).toMatchObject({ outcome: 'not_needed' });
    expect((await checks(id!)).map((c) => c.decision)).toEqual(['released']); // no read stored
    expect((await status(id!)).status).toBe('sent');
  });
  it('I1 — released, then canceled before it went out again: the late original is found by the watch, the delivery goes from canceled to review as live, once', async () => {
    const account = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', processingMs: PROCESSING_MS });
    const label = sandbox.uniqueText('gave up');
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label,
    });
    await publish();
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
    await settle(id!);
    expect((await checks(id!)).map((c) => c.decision)).toEqual(['waiting', 'not_found_recheck', 'released']);
    const [row] = await db.select({ postId: deliveries.postId }).from(deliveries).where(eq(deliveries.id, id!));
    await cancelScheduledDeliveries(db, { workspaceId: account.workspaceId, postId: row!.postId, actor: 'test' });
    expect((await status(id!)).status).toBe('canceled');
    // Canceled after a release: watched, as a republished delivery is once sent.
    const started = (await watchOf(id!))!.startedAt.getTime();

    for (const delay of DELAYS_MS) {
      if ((await status(id!)).status !== 'canceled') break;
      await sleepUntil(started + delay + 50);
      await watch();
    }
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, `${label} #0`)).toBe(1);
    expect((await status(id!)).status).toBe('needs_review');
    expect(await watchOf(id!)).toMatchObject({ outcome: 'late_copy' });
    const moves = await db
      .select({ from: deliveryEvents.fromStatus, to: deliveryEvents.toStatus, reason: deliveryEvents.reason })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.deliveryId, id!))
      .orderBy(deliveryEvents.id);
    expect(moves.map((m) => m.to)).toEqual([
      'scheduled',
      'publishing',
      'ambiguous',
      'scheduled',
      'canceled',
      'needs_review',
    ]);
    expect(moves.at(-1)).toEqual({ from: 'canceled', to: 'needs_review', reason: GAVE_UP_COPY_REASON });
    const [notice] = await db.select().from(notifications).where(eq(notifications.deliveryId, id!));
    expect(notice!.message).toContain('it was canceled, yet a copy is on the platform');
    expect(await duplicateEvents(id!)).toHaveLength(0); // one copy is not a duplicate: delivery.needs_review says it
    // Later passes change nothing: the watch ended.
    await watch();
    expect(moves).toHaveLength(
      (await db.select().from(deliveryEvents).where(eq(deliveryEvents.deliveryId, id!))).length,
    );
  });

  it('released, then canceled, and nothing ever lands: the watch reads at each step and ends clear, canceled stays', async () => {
    const account = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey', timeoutBeforeCommit: 1 });
    const [id] = await schedulePosts(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      count: 1,
      label: sandbox.uniqueText('never landed'),
    });
    await publish();
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'mastodon-nokey' });
    await settle(id!);
    expect((await checks(id!)).at(-1)?.decision).toBe('released');
    const [row] = await db.select({ postId: deliveries.postId }).from(deliveries).where(eq(deliveries.id, id!));
    await cancelScheduledDeliveries(db, { workspaceId: account.workspaceId, postId: row!.postId, actor: 'test' });
    const started = (await watchOf(id!))!.startedAt.getTime();
    for (const delay of DELAYS_MS) {
      await sleepUntil(started + delay + 50);
      await watch();
    }
    expect(await watchOf(id!)).toMatchObject({ outcome: 'clear', checksDone: DELAYS_MS.length });
    expect((await checks(id!)).filter((c) => c.decision === 'watch_clear')).toHaveLength(DELAYS_MS.length);
    expect((await status(id!)).status).toBe('canceled');
  });
});
