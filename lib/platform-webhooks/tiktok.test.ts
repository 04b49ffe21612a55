import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueDeliveries, saveProviderState, startAttempts } from '@/db/queries/deliveries';
import { deliveries, platformEvents } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { fetchThroughApp, storedVideo } from '@/testing/media';
import { deliveryStates, schedulePostWithMedia, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { makeTestVideo } from '@/testing/video';
import { PLATFORM_EVENT_RETENTION_MS, pruneOldPlatformEvents } from './prune';
import { receivePlatformWebhook } from './receive';
import { sandboxWebhookSecret, tiktokSignature } from './signature';

// TikTok's publish events in (docs/networks.md#platform-webhooks), against a real ambiguous delivery made by the
// publisher on the sandbox: signed with TikTok-Signature, each stored once by its name and publish_id, matched to the
// delivery by the publish_id it kept, applied only forward (an ambiguous delivery is read again now; a settled one never
// moves), and never turned into a post.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-tiktok-webhooks-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.SANDBOX_ENABLED = 'true';
process.env.TIKTOK_CLIENT_SECRET = 'live-client-secret';
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);
const sandbox = await startTestSandbox({ fetchImage: fetchThroughApp });
const { db } = sandbox;
const SANDBOX_SECRET = sandboxWebhookSecret('tiktok', TEST_ENCRYPTION_KEY);
const PROCESSING_MS = 1_500; // longer than the attempt's 1 s: the publish is still processing when it ends

let clip: string;
beforeAll(async () => {
  clip = await makeTestVideo(path.join(mediaDir, 'clip.mp4'), { seconds: 4, width: 360, height: 640 });
});

type Account = Awaited<ReturnType<typeof sandbox.connectAccount>>;
const event = (account: Account, name: string, content: Record<string, unknown>) => ({
  client_key: 'sbx',
  event: name,
  create_time: Math.floor(Date.now() / 1000),
  user_openid: account.platformUserId,
  content: JSON.stringify(content),
});
function deliver(body: unknown, signature: string | null = null) {
  const raw = JSON.stringify(body);
  return receivePlatformWebhook(
    db,
    'tiktok',
    new Request('http://app.test/api/webhooks/tiktok', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'tiktok-signature': signature ?? tiktokSignature(raw, SANDBOX_SECRET),
      },
      body: raw,
    }),
  );
}
const eventsOf = (deliveryId: string) =>
  db
    .select({ kind: platformEvents.kind, outcome: platformEvents.outcome })
    .from(platformEvents)
    .where(eq(platformEvents.deliveryId, deliveryId))
    .orderBy(platformEvents.receivedAt);
const stored = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from platform_events`))[0]!.n;
const counts = async () =>
  (
    await db.execute<{ posts: number; deliveries: number }>(
      sql`select (select count(*)::int from posts) as posts, (select count(*)::int from deliveries) as deliveries`,
    )
  )[0]!;
const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!.status;
const row = async (id: string) =>
  (
    await db
      .select({ dueAt: deliveries.dueAt, state: deliveries.providerState })
      .from(deliveries)
      .where(eq(deliveries.id, id))
  )[0]!;

/** A TikTok delivery left ambiguous by the publisher: its publish_id kept, TikTok still processing it. */
async function ambiguousDelivery() {
  const account = await sandbox.connectAccount('tiktok');
  await sandbox.setFaults(account.sandboxAccount.id, { processingMs: PROCESSING_MS });
  const video = await storedVideo(db, storage, account.workspaceId, clip);
  const id = await schedulePostWithMedia(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    text: sandbox.uniqueText('tiktok webhook'),
    mediaIds: [video.id],
    options: { privacy_level: 'SELF_ONLY' },
  });
  await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 1_000, mediaStorage: storage }));
  expect(await status(id)).toBe('ambiguous');
  const publishId = String((await row(id)).state.publishId);
  expect(publishId).toMatch(/^v_pub~/);
  return { account, id, publishId };
}

describe('POST /api/webhooks/tiktok', () => {
  it('post.publish.complete for an ambiguous delivery: stored once, matched by publish_id, read again now → sent; a redelivery changes nothing', async () => {
    const { account, id, publishId } = await ambiguousDelivery();
    expect((await row(id)).dueAt.getTime()).toBeGreaterThan(Date.now());
    await new Promise((resolve) => setTimeout(resolve, PROCESSING_MS));
    const complete = event(account, 'post.publish.complete', { publish_id: publishId, publish_type: 'DIRECT_PUBLISH' });
    const first = await deliver(complete);
    expect(await first.json()).toEqual({ received: 1, stored: 1 });
    expect(await eventsOf(id)).toEqual([{ kind: 'post.publish.complete', outcome: 'applied' }]);
    // The evidence arrived: the delivery is due for its check now, not at its backoff. The reconciler still decides.
    expect((await row(id)).dueAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await status(id)).toBe('ambiguous');
    await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    expect(await status(id)).toBe('sent');

    const before = await row(id);
    const again = await deliver({ ...complete, create_time: complete.create_time + 5 });
    expect(await again.json()).toEqual({ received: 1, stored: 0 });
    expect(await eventsOf(id)).toHaveLength(1);
    expect(await row(id)).toEqual(before);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('I5 — an out-of-order event after complete is ignored: a late post.publish.failed never undoes sent (TikTok sends no processing event)', async () => {
    const { account, id, publishId } = await ambiguousDelivery();
    await new Promise((resolve) => setTimeout(resolve, PROCESSING_MS));
    await deliver(event(account, 'post.publish.complete', { publish_id: publishId, publish_type: 'DIRECT_PUBLISH' }));
    await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    expect(await status(id)).toBe('sent');
    const late = await deliver(
      event(account, 'post.publish.failed', { publish_id: publishId, reason: 'file_format_check_failed' }),
    );
    expect(await late.json()).toEqual({ received: 1, stored: 1 });
    expect(await status(id)).toBe('sent');
    expect(await eventsOf(id)).toEqual([
      { kind: 'post.publish.complete', outcome: 'applied' },
      { kind: 'post.publish.failed', outcome: 'ignored' },
    ]);
  });

  it('a publish outcome for a delivery waiting for review is kept as its evidence (never ignored, never pruned), and changes nothing', async () => {
    const { account, id, publishId } = await ambiguousDelivery();
    await db.update(deliveries).set({ status: 'needs_review' }).where(eq(deliveries.id, id));
    await deliver(event(account, 'post.publish.complete', { publish_id: publishId, publish_type: 'DIRECT_PUBLISH' }));
    expect(await status(id)).toBe('needs_review');
    expect(await eventsOf(id)).toEqual([{ kind: 'post.publish.complete', outcome: 'kept' }]);
  });

  it('a bad, missing, foreign or stale signature is 401 and stores nothing', async () => {
    const { account, publishId } = await ambiguousDelivery();
    const body = event(account, 'post.publish.complete', { publish_id: publishId });
    const raw = JSON.stringify(body);
    const before = await stored();
    for (const signature of [
      'nonsense',
      tiktokSignature(raw, 'not-our-secret'),
      tiktokSignature(raw, SANDBOX_SECRET, Date.now() - 10 * 60_000),
      tiktokSignature(`${raw} `, SANDBOX_SECRET),
    ]) {
      const res = await deliver(body, signature);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect(await stored()).toBe(before);
  });

  it('signed with TIKTOK_CLIENT_SECRET: only real accounts match (a sandbox account’s event stays unmatched)', async () => {
    const { account, id, publishId } = await ambiguousDelivery();
    const body = event(account, 'post.publish.complete', { publish_id: publishId });
    const raw = JSON.stringify(body);
    const res = await deliver(body, tiktokSignature(raw, 'live-client-secret'));
    expect(await res.json()).toEqual({ received: 1, stored: 1 });
    expect(await eventsOf(id)).toEqual([]);
    expect(await status(id)).toBe('ambiguous');
  });

  it('an event for an unknown publish_id or user is kept as unmatched and creates no post', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const before = await counts();
    const unknownPublish = `v_pub~v2-1.${randomUUID()}`;
    await deliver(event(account, 'post.publish.complete', { publish_id: unknownPublish }));
    await deliver({
      ...event(account, 'post.publish.complete', { publish_id: unknownPublish }),
      user_openid: 'nobody',
    });
    const rows = await db
      .select({ outcome: platformEvents.outcome, accountId: platformEvents.accountId })
      .from(platformEvents)
      .where(eq(platformEvents.objectId, unknownPublish));
    expect(rows.map((r) => r.outcome)).toEqual(['unmatched', 'unmatched']);
    expect(rows.map((r) => r.accountId).sort()).toEqual([account.productAccountId, null].sort());
    expect(await counts()).toEqual(before);
  });

  it('an event that came before its delivery kept the publish_id is matched when the delivery keeps it', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const publishId = `v_pub~v2-1.${randomUUID()}`;
    await deliver(event(account, 'post.publish.complete', { publish_id: publishId }));
    const early = () =>
      db
        .select({ outcome: platformEvents.outcome, deliveryId: platformEvents.deliveryId })
        .from(platformEvents)
        .where(eq(platformEvents.objectId, publishId));
    expect(await early()).toEqual([{ outcome: 'unmatched', deliveryId: null }]);
    const video = await storedVideo(db, storage, account.workspaceId, clip);
    const id = await schedulePostWithMedia(db, {
      workspaceId: account.workspaceId,
      accountId: account.productAccountId,
      text: sandbox.uniqueText('early event'),
      mediaIds: [video.id],
      options: { privacy_level: 'SELF_ONLY' },
    });
    const claim = (await claimDueDeliveries(db, { workerId: 'early', limit: 50, leaseMs: 30_000 })).find(
      (c) => c.deliveryId === id,
    )!;
    await startAttempts(db, { claims: [claim], minLeaseMs: 0 });
    expect(await saveProviderState(db, { deliveryId: id, generation: claim.generation, state: { publishId } })).toBe(
      true,
    );
    expect(await early()).toEqual([{ outcome: 'kept', deliveryId: id }]);
  });

  it('retention: unmatched and ignored events older than 30 days are pruned; applied ones and recent ones stay', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const old = new Date(Date.now() - PLATFORM_EVENT_RETENTION_MS - 60_000);
    const rows = await db
      .insert(platformEvents)
      .values(
        (['unmatched', 'ignored', 'applied', 'unmatched'] as const).map((outcome, i) => ({
          provider: 'tiktok' as const,
          sandbox: true,
          eventKey: `retention:${randomUUID()}`,
          kind: 'post.publish.complete',
          platformUserId: account.platformUserId,
          objectId: null,
          outcome,
          payload: {},
          receivedAt: i < 3 ? old : new Date(),
        })),
      )
      .returning({ id: platformEvents.id, outcome: platformEvents.outcome });
    expect(await pruneOldPlatformEvents(db)).toBeGreaterThanOrEqual(2);
    const left = await db.select({ id: platformEvents.id }).from(platformEvents);
    const ids = new Set(left.map((r) => r.id));
    expect(rows.map((r) => ids.has(r.id))).toEqual([false, false, true, true]);
  });
});
