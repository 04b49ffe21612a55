import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attempts, deliveries, deliveryEvents, reconciliations } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { attemptCount, deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox, type ConnectOptions } from '@/testing/sandbox';
import type { FaultSettings } from '@/sandbox/store/types';
import { reconcileAmbiguousDeliveries, type ReconcileOptions } from './reconcile';
import { testReconcileOptions } from '@/testing/reconciler';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

// LinkedIn end to end: the publisher, the sandbox's LinkedIn dialect and the reconciler's `evidence` strategy.
// A duplicate refusal names a URN that is read back; an organization page is listed; a member's profile
// cannot be listed, so an unknown outcome there goes to an admin, never to a resend.

const CALL_TIMEOUT_MS = 300;
const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: CALL_TIMEOUT_MS }));
/** The publisher schedules the first read after the call timeout; a refusal answered at once is read then. */
const publishAndWait = async () => {
  await publish();
  await sleep(CALL_TIMEOUT_MS);
};
const reconcile = (overrides: Partial<ReconcileOptions> = {}) =>
  reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url, overrides));
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
const checks = (id: string) =>
  db.select().from(reconciliations).where(eq(reconciliations.deliveryId, id)).orderBy(reconciliations.checkedAt);
const lastAttempt = async (id: string) =>
  (await db.select().from(attempts).where(eq(attempts.deliveryId, id)).orderBy(attempts.startedAt)).at(-1)!;
/** Why the delivery last changed status (the reason people see beside it). */
const lastReason = async (id: string) =>
  (await db.select().from(deliveryEvents).where(eq(deliveryEvents.deliveryId, id)).orderBy(deliveryEvents.id)).at(-1)!
    .reason;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));

/** One delivery on a fresh LinkedIn account (a page unless told otherwise), scheduled now; its text. */
async function scheduled(label: string, options: ConnectOptions = {}) {
  const account = await sandbox.connectAccount('linkedin', undefined, options);
  const text = sandbox.uniqueText(label);
  const [id] = await schedulePosts(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    count: 1,
    label: text,
  });
  return { id: id!, account, text: `${text} #0` };
}

/** Published once with these faults, ambiguous; the platform then answers normally (same profile). */
async function ambiguous(label: string, faults: Partial<FaultSettings>, options: ConnectOptions = {}) {
  const delivery = await scheduled(label, options);
  await sandbox.setFaults(delivery.account.sandboxAccount.id, faults);
  await publish();
  expect((await status(delivery.id)).status).toBe('ambiguous');
  await sandbox.setFaults(delivery.account.sandboxAccount.id, { profile: faults.profile });
  return delivery;
}

describe('LinkedIn: a duplicate refusal is read back by the URN it names', () => {
  it('422 DUPLICATE_POST naming our post → reconcile reads the URN → sent with that URN; one copy, one attempt', async () => {
    const { id, account, text } = await scheduled('dup');
    // The post is already on the page (an earlier attempt whose answer was lost): LinkedIn refuses the text again.
    const earlier = await account.client.publish({ text, kind: 'post', idempotencyKey: id });
    await publishAndWait();
    expect(await status(id)).toMatchObject({ status: 'ambiguous' });
    expect(await lastAttempt(id)).toMatchObject({ outcome: 'ambiguous' });
    await reconcile();
    expect(await status(id)).toMatchObject({ status: 'sent', externalId: earlier.externalId });
    const [check] = await checks(id);
    expect(check).toMatchObject({ decision: 'found', strategy: 'linkedin-evidence' });
    expect(check!.evidence).toMatchObject({ duplicateOf: earlier.externalId, verdict: 'found' });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await attemptCount(db, id)).toBe(1);
  });

  it('a "ghost": the named post was deleted (404) → needs_review with the evidence, nothing resent', async () => {
    const { id, account, text } = await scheduled('ghost');
    const earlier = await account.client.publish({ text, kind: 'post', idempotencyKey: id });
    await account.client.deletePost(earlier.externalId!);
    await publishAndWait();
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await checks(id);
    expect(check!.decision).toBe('needs_review');
    expect(await lastReason(id)).toContain(earlier.externalId);
    expect(check!.evidence).toMatchObject({
      duplicates: [{ urn: earlier.externalId, status: 404 }],
      verdict: 'review',
    });
    await publish();
    expect(await attemptCount(db, id)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(0);
  });

  it('a named post older than our attempts is not ours: the page is listed, and "duplicate but not found" goes to review', async () => {
    const { id, account, text } = await scheduled('older');
    const earlier = await account.client.publish({ text, kind: 'post', idempotencyKey: id });
    const sandboxId = earlier.externalId!.split(':').at(-1)!;
    await db.execute(
      sql`update sandbox.posts set created_at = now() - interval '10 minutes' where id = ${sandboxId}::bigint`,
    );
    await publishAndWait();
    await reconcile(); // not ours; the listing of the window shows no copy: recheck
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    expect((await checks(id)).map((c) => [c.decision, c.strategy])).toEqual([
      ['not_found_recheck', 'linkedin-timeline'],
      ['needs_review', 'linkedin-timeline'],
    ]);
    expect(await attemptCount(db, id)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
  });
});

describe('LinkedIn organization page: an unknown outcome is settled by listing the page', () => {
  it('timeout after commit → found in the listing with exactly one copy', async () => {
    const { id, account, text } = await ambiguous('org timeout', { timeoutAfterCommit: 1 });
    await reconcile();
    const after = await status(id);
    expect(after.status).toBe('sent');
    expect(after.externalId).toMatch(/^urn:li:share:\d+$/);
    expect((await checks(id))[0]).toMatchObject({ decision: 'found', strategy: 'linkedin-timeline' });
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await attemptCount(db, id)).toBe(1);
  });

  for (const profile of ['linkedin', 'plain'] as const) {
    it(`I1 — slow processing (profile ${profile}): the reconciler waits it out and finds the one copy`, async () => {
      const allowance = allowanceFor(0, { linkedin: 1_500 });
      const delivery = await scheduled(`slow ${profile}`);
      await sandbox.setFaults(delivery.account.sandboxAccount.id, { profile, processingMs: 1_200 });
      await publish();
      expect((await status(delivery.id)).status).toBe('ambiguous');
      const options = { callTimeoutMs: CALL_TIMEOUT_MS, allowanceMs: allowance };
      await reconcile(options);
      expect((await checks(delivery.id)).map((c) => c.decision)).toEqual(['waiting']);
      // Before the allowance ran out, the post was not even there yet: a read then would have "proved" absence.
      expect(await sandbox.copiesOfText(delivery.account.sandboxAccount.id, delivery.text)).toBe(0);
      await sleep(CALL_TIMEOUT_MS + allowance.linkedin);
      await dueNow(delivery.id);
      await reconcile(options);
      expect((await status(delivery.id)).status).toBe('sent');
      expect(await sandbox.copiesOfText(delivery.account.sandboxAccount.id, delivery.text)).toBe(1);
      expect(await attemptCount(db, delivery.id)).toBe(1);
    });
  }

  it('timeout before commit → not found in two reads → released, published again exactly once', async () => {
    const { id, account, text } = await ambiguous('org before', { timeoutBeforeCommit: 1 });
    await reconcile();
    await reconcile();
    expect((await checks(id)).map((c) => c.decision)).toEqual(['not_found_recheck', 'released']);
    await publish();
    expect((await status(id)).status).toBe('sent');
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1);
    expect(await attemptCount(db, id)).toBe(2);
  });
});

describe('LinkedIn member: the profile cannot be listed', () => {
  it('an ambiguous member post → needs_review with the evidence; never a resend', async () => {
    const { id, account, text } = await ambiguous('member', { timeoutAfterCommit: 1 }, { linkedinAuthor: 'person' });
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await checks(id);
    expect(check).toMatchObject({ decision: 'needs_review', strategy: 'linkedin-evidence' });
    expect(await lastReason(id)).toMatch(/member posts cannot be listed; check the profile/);
    expect(check!.evidence).toMatchObject({ attempts: [{ timedOut: true }], verdict: 'review' });
    await publish();
    await reconcile();
    expect(await attemptCount(db, id)).toBe(1);
    expect(await sandbox.copiesOfText(account.sandboxAccount.id, text)).toBe(1); // the post did land; an admin confirms it
  });

  it('a member duplicate whose post cannot be read back → needs_review naming the URN', async () => {
    const { id, account, text } = await scheduled('member dup', { linkedinAuthor: 'person' });
    const earlier = await account.client.publish({ text, kind: 'post', idempotencyKey: id });
    await publishAndWait();
    await reconcile();
    expect((await status(id)).status).toBe('needs_review');
    const [check] = await checks(id);
    expect(await lastReason(id)).toContain(earlier.externalId);
    expect(check!.evidence).toMatchObject({ duplicates: [{ urn: earlier.externalId, status: 403 }] });
    expect(await attemptCount(db, id)).toBe(1);
  });
});
