import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, platformEvents } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { createSandboxWebhooks } from '@/sandbox/webhooks/sender';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { fetchThroughApp, storedVideo } from '@/testing/media';
import { deliveryStates, schedulePostWithMedia, testPublisherOptions } from '@/testing/publisher';
import { testReconcileOptions } from '@/testing/reconciler';
import { startTestSandbox } from '@/testing/sandbox';
import { makeTestVideo } from '@/testing/video';
import { sandboxWebhookSecret } from './signature';

// The sandbox sends TikTok's publish webhooks to the app's /api/webhooks/tiktok as TikTok does: every event twice here,
// each copy after its own delay (so the two events of a public post arrive in any order), signed with the sandbox's
// secret. The app's route handler takes them over real HTTP; each event is stored once, and the delivery ends right.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-sandbox-webhooks-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
process.env.SANDBOX_ENABLED = 'true';
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);

// The app's webhook route, served over HTTP (the sandbox's sender reaches it as it would reach TikTok's callback URL).
let receiverUrl = '';
const webhooks = createSandboxWebhooks({
  url: (network) => `${receiverUrl}/api/webhooks/${network}`,
  secret: (network) => sandboxWebhookSecret(network, TEST_ENCRYPTION_KEY),
  duplicateShare: 1,
  maxDelayMs: 600,
});
const sandbox = await startTestSandbox({ fetchImage: fetchThroughApp, webhooks });
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl();
const { POST } = await import('@/app/api/webhooks/[network]/route');
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const network = /^\/api\/webhooks\/([a-z]+)$/.exec(req.url ?? '')?.[1] ?? '';
  const response = await POST(
    new Request(`${receiverUrl}${req.url}`, {
      method: 'POST',
      headers: Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]),
      body: Buffer.concat(chunks),
    }),
    { params: Promise.resolve({ network }) },
  );
  res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

let clip: string;
beforeAll(async () => {
  clip = await makeTestVideo(path.join(mediaDir, 'clip.mp4'), { seconds: 4, width: 360, height: 640 });
});

const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!.status;
const eventsOf = (deliveryId: string) =>
  db
    .select({ kind: platformEvents.kind, outcome: platformEvents.outcome })
    .from(platformEvents)
    .where(eq(platformEvents.deliveryId, deliveryId));

async function publicPost(processingMs: number, callTimeoutMs: number) {
  const account = await sandbox.connectAccount('tiktok');
  await sandbox.setFaults(account.sandboxAccount.id, { processingMs });
  const video = await storedVideo(db, storage, account.workspaceId, clip);
  const id = await schedulePostWithMedia(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    text: sandbox.uniqueText('tiktok sandbox webhooks'),
    mediaIds: [video.id],
    options: { privacy_level: 'PUBLIC_TO_EVERYONE' },
  });
  await publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs, mediaStorage: storage }));
  return { account, id };
}

describe('the sandbox sends TikTok’s publish webhooks', () => {
  it('an ambiguous publish: each event delivered twice, stored once, applied; the reconciler then settles it sent, once', async () => {
    const before = webhooks.delivered('tiktok');
    const { account, id } = await publicPost(1_500, 1_000);
    expect(await status(id)).toBe('ambiguous');
    const [{ dueAt }] = await db.select({ dueAt: deliveries.dueAt }).from(deliveries).where(eq(deliveries.id, id));
    expect(dueAt!.getTime()).toBeGreaterThan(Date.now());
    await webhooks.idle();
    // complete and publicly_available, each twice: four copies taken (2xx), two events stored.
    expect(webhooks.delivered('tiktok') - before).toBe(4);
    const events = await eventsOf(id);
    expect(events.map((e) => e.kind).sort()).toEqual(['post.publish.complete', 'post.publish.publicly_available']);
    expect(events.every((e) => e.outcome === 'applied')).toBe(true);
    await reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));
    expect(await status(id)).toBe('sent');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
  });

  it('a publish settled within its attempt: its events (arriving while it publishes or after) are stored once and move nothing', async () => {
    const { id } = await publicPost(0, 5_000); // room for the processing to end within the attempt
    expect(await status(id)).toBe('sent');
    await webhooks.idle();
    const events = await eventsOf(id);
    expect(events).toHaveLength(2);
    // `kept` when one came while the attempt was still settling it, `ignored` after: never `applied`, never a change.
    expect(
      events.every((e) => e.outcome === 'kept' || e.outcome === 'ignored'),
      JSON.stringify(events),
    ).toBe(true);
    expect(await status(id)).toBe('sent');
  });
});
