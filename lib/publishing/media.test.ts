import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { attempts } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import type { ProviderName } from '@/lib/providers/types';
import { fetchThroughApp, storedImage } from '@/testing/media';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { publishDueDeliveries } from './publish-due';
import { deliveryStates, schedulePostWithMedia, testPublisherOptions } from '@/testing/publisher';

// The app serves images at signed URLs from MEDIA_DIR with APP_ENCRYPTION_KEY; the publisher signs with the same key.
const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-publish-media-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);

const sandbox = await startTestSandbox({ hangMs: 3_000, fetchImage: fetchThroughApp });
const { db } = sandbox;
const options = (overrides = {}) =>
  testPublisherOptions(sandbox.url, { callTimeoutMs: 5_000, mediaStorage: storage, ...overrides });

/** A stored image (checked and stripped as an upload is) and a post due now that shows it. */
async function postWithImages(account: { workspaceId: string; productAccountId: string }, count = 1, label = 'image') {
  const media = [];
  for (let i = 0; i < count; i++) media.push(await storedImage(db, storage, account.workspaceId, { index: i }));
  const text = sandbox.uniqueText(label);
  const deliveryId = await schedulePostWithMedia(db, {
    workspaceId: account.workspaceId,
    accountId: account.productAccountId,
    text,
    mediaIds: media.map((m) => m.id),
  });
  return { deliveryId, text, media };
}

const expected = (media: { type: string; altText: string; sha256: string }[]) =>
  media.map((m) => ({ type: m.type, altText: m.altText, sha256: m.sha256 }));

describe('a post with images, on each network (uploaded first, then the post names them)', () => {
  const networks: ProviderName[] = ['x', 'mastodon', 'bluesky', 'linkedin', 'threads'];
  for (const network of networks) {
    it(`${network}: one copy on the platform, showing the images with their alt text and the stored bytes' hash`, async () => {
      const account = await sandbox.connectAccount(network);
      const { deliveryId, text, media } = await postWithImages(account, 2, `${network} images`);
      const summary = await publishDueDeliveries(db, options());
      expect(summary.sent).toBe(1);
      expect((await deliveryStates(db, [deliveryId])).get(deliveryId)!.status).toBe('sent');
      const copies = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text);
      expect(copies).toHaveLength(1);
      expect(copies[0]!.media).toEqual(expected(media));
    });
  }

  it('mastodon: an image still processing (202) is awaited (206 → 200) before the status', async () => {
    const account = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 800 });
    const { deliveryId, text, media } = await postWithImages(account, 1, 'processing');
    expect((await publishDueDeliveries(db, options())).sent).toBe(1);
    expect((await deliveryStates(db, [deliveryId])).get(deliveryId)!.status).toBe('sent');
    const copies = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text);
    expect(copies.map((c) => c.media)).toEqual([expected(media)]);
  });
});

describe('a media upload that fails or goes unanswered: the post was not attempted (not_sent, never ambiguous)', () => {
  const cases = [
    { network: 'x', fault: { errorAfterCommit: 1 }, why: 'a 5xx on the upload' },
    { network: 'x', fault: { timeoutAfterCommit: 1 }, why: 'a timeout after the upload was stored' },
    { network: 'mastodon', fault: { resetAfterCommit: 1 }, why: 'a reset after the upload was stored' },
    { network: 'linkedin', fault: { timeoutBeforeCommit: 1 }, why: 'initializeUpload timing out' },
    { network: 'bluesky', fault: { errorAfterCommit: 1 }, why: 'uploadBlob failing' },
  ] as const;
  for (const { network, fault, why } of cases) {
    it(`${network}, ${why}: not_sent, back to scheduled, no post on the platform`, async () => {
      const account = await sandbox.connectAccount(network);
      await sandbox.setFaults(account.sandboxAccount.id, fault);
      const { deliveryId } = await postWithImages(account, 1, `${network} upload fails`);
      const summary = await publishDueDeliveries(db, options({ callTimeoutMs: 1_000 }));
      expect(summary).toMatchObject({ not_sent: 1, ambiguous: 0, sent: 0 });
      const state = (await deliveryStates(db, [deliveryId])).get(deliveryId)!;
      expect(state.status).toBe('scheduled');
      expect(state.dueAt.getTime()).toBeGreaterThan(Date.now());
      const [attempt] = await db.select().from(attempts).where(eq(attempts.deliveryId, deliveryId));
      expect(attempt!.outcome).toBe('not_sent');
      expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    });
  }

  it('the retry after the failure uploads again (the orphan upload is harmless) and posts once', async () => {
    const account = await sandbox.connectAccount('x');
    await sandbox.setFaults(account.sandboxAccount.id, { timeoutAfterCommit: 1 });
    const { deliveryId, text, media } = await postWithImages(account, 1, 'retry');
    await publishDueDeliveries(db, options({ callTimeoutMs: 800 }));
    await sandbox.setFaults(account.sandboxAccount.id, {});
    await db.execute(sql`update deliveries set due_at = now() where id = ${deliveryId}`);
    expect((await publishDueDeliveries(db, options())).sent).toBe(1);
    const copies = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text);
    expect(copies.map((c) => c.media)).toEqual([expected(media)]);
  });
});

describe('steps of the image upload, each ending before the post', () => {
  const lastAttempt = async (deliveryId: string) =>
    (await db.select().from(attempts).where(eq(attempts.deliveryId, deliveryId)).orderBy(attempts.startedAt)).at(-1)!;
  const ruleOf = async (deliveryId: string) =>
    (
      await db.execute<{ rule: string }>(
        sql`select detail->>'rule' as rule from delivery_events where delivery_id = ${deliveryId} order by id desc limit 1`,
      )
    )[0]!.rule;

  it('mastodon still processing when the call time runs out: not_sent (media-still-processing), no status', async () => {
    const account = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 5_000 });
    const { deliveryId } = await postWithImages(account, 1, 'slow processing');
    expect(await publishDueDeliveries(db, options({ callTimeoutMs: 1_500 }))).toMatchObject({ not_sent: 1 });
    expect((await lastAttempt(deliveryId)).outcome).toBe('not_sent');
    expect(await ruleOf(deliveryId)).toBe('media-still-processing');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });

  it('threads: an image container still IN_PROGRESS is kept and not published yet (not_sent); the next attempt publishes it', async () => {
    const account = await sandbox.connectAccount('threads');
    await sandbox.setFaults(account.sandboxAccount.id, { processingMs: 1_200 });
    const { deliveryId, text, media } = await postWithImages(account, 1, 'threads processing');
    // An earlier test's retry (not sent, due again after its backoff) can fall due during this one on a loaded
    // machine: the passes here are about this delivery only.
    await db.execute(
      sql`update deliveries set due_at = now() + interval '1 hour' where status = 'scheduled' and id <> ${deliveryId}`,
    );
    expect(await publishDueDeliveries(db, options())).toMatchObject({ claimed: 1, not_sent: 1 });
    expect(await ruleOf(deliveryId)).toBe('threads-container-in-progress');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await db.execute(sql`update deliveries set due_at = now() where id = ${deliveryId}`);
    expect(await publishDueDeliveries(db, options())).toMatchObject({ sent: 1 });
    const copies = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text);
    expect(copies.map((c) => c.media)).toEqual([expected(media)]);
  });

  it('an image missing from the media storage: failed (media-unreadable) before any request', async () => {
    const account = await sandbox.connectAccount('x');
    const { deliveryId } = await postWithImages(account, 1, 'missing bytes');
    await db.execute(sql`update media set sha256 = ${'0'.repeat(64)} where id in (
      select media_id from post_media pm join deliveries d on d.post_id = pm.post_id where d.id = ${deliveryId})`);
    expect(await publishDueDeliveries(db, options())).toMatchObject({ failed: 1 });
    expect(await ruleOf(deliveryId)).toBe('media-unreadable');
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(0);
  });
});
