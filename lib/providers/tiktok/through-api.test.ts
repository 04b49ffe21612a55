import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries } from '@/db/schema';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { apiRequest, noParams } from '@/testing/api-fixture';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { fetchThroughApp, storedVideo } from '@/testing/media';
import { attemptCount, deliveryStates, testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { makeTestVideo } from '@/testing/video';

// A TikTok post made through the public API with its options goes out once with them (docs/api.md#options): the
// route stores the options on the delivery, the publisher hands them to the real client, the client checks them
// against creator_info and inits once; the sandbox's own records show the privacy level TikTok got.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-tiktok-api-'));
process.env.MEDIA_DIR = mediaDir;
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(mediaDir);
const sandbox = await startTestSandbox({ fetchImage: fetchThroughApp });
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl();
const { POST: createPost } = await import('@/app/api/v1/posts/route');

let clip: string;
beforeAll(async () => {
  clip = await makeTestVideo(path.join(mediaDir, 'clip.mp4'), { seconds: 4, width: 360, height: 640 });
});

const publish = () =>
  publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 4_000, mediaStorage: storage }));
const publishes = (sandboxAccountId: string) =>
  db.execute<{ privacy_level: string | null; mode: string; title: string }>(
    sql`select privacy_level, mode, title from sandbox.tiktok_publishes where account_id = ${sandboxAccountId}`,
  );

async function post(account: Awaited<ReturnType<typeof sandbox.connectAccount>>, options: Record<string, unknown>) {
  const video = await storedVideo(db, storage, account.workspaceId, clip);
  const text = sandbox.uniqueText('tiktok via api');
  const res = await createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token: await sandbox.apiKey(account.workspaceId),
      key: randomUUID(),
      body: {
        text,
        accountIds: [account.productAccountId],
        mediaIds: [video.id],
        options: { [account.productAccountId]: options },
      },
    }),
    noParams,
  );
  expect(res.status).toBe(201);
  const body = await res.json();
  const [delivery] = await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.postId, body.id));
  return { deliveryId: delivery!.id, text };
}

/** Publishes until the delivery settles (TikTok processes after the init: the attempt reads its status). */
async function publishUntilSettled(id: string) {
  for (let i = 0; i < 10; i++) {
    await publish();
    const { status } = (await deliveryStates(db, [id])).get(id)!;
    if (status !== 'scheduled' && status !== 'publishing') return status;
    await db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));
  }
  return (await deliveryStates(db, [id])).get(id)!.status;
}

describe('TikTok through POST /api/v1/posts', () => {
  it('I1 — a video with options goes out once, with the privacy level chosen', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { deliveryId, text } = await post(account, { privacy_level: 'FOLLOWER_OF_CREATOR', disable_duet: true });
    expect(await publishUntilSettled(deliveryId)).toBe('sent');
    expect([...(await publishes(account.sandboxAccount.id))]).toEqual([
      { privacy_level: 'FOLLOWER_OF_CREATOR', mode: 'direct', title: text },
    ]);
    expect(await sandbox.copies(account.sandboxAccount.id)).toBe(1);
    // Published: another pass publishes nothing more.
    await publish();
    expect((await publishes(account.sandboxAccount.id)).length).toBe(1);
    expect(await attemptCount(db, deliveryId)).toBe(1);
  });

  it('inbox: uploaded to the creator’s inbox, no privacy level sent', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { deliveryId } = await post(account, { post_mode: 'inbox' });
    expect(await publishUntilSettled(deliveryId)).toBe('sent');
    expect([...(await publishes(account.sandboxAccount.id))]).toMatchObject([{ privacy_level: null, mode: 'inbox' }]);
  });

  it('a privacy level the creator no longer offers fails with the reason, and nothing reaches TikTok', async () => {
    const account = await sandbox.connectAccount('tiktok');
    const { deliveryId } = await post(account, { privacy_level: 'PUBLIC_TO_EVERYONE' });
    // The creator made the account private after the post was scheduled: creator_info no longer offers public posts.
    await sandbox.setFaults(account.sandboxAccount.id, { profile: 'tiktok-private' });
    expect(await publishUntilSettled(deliveryId)).toBe('failed');
    const [row] = await db
      .select({ reason: deliveries.failureReason })
      .from(deliveries)
      .where(eq(deliveries.id, deliveryId));
    expect(row!.reason).toMatch(
      /cannot post as PUBLIC_TO_EVERYONE now \(allowed: MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY\)/,
    );
    expect((await publishes(account.sandboxAccount.id)).length).toBe(0);
  });
});
