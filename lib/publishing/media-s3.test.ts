import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { media as mediaTable } from '@/db/schema';
import { getMediaStorage } from '@/lib/media/storage';
import { uploadMedia } from '@/lib/media/upload';
import type { ProviderName } from '@/lib/providers/types';
import { makeImage } from '@/testing/images';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startTestSandbox } from '@/testing/sandbox';
import { startTestS3 } from '@/testing/s3';
import { deliveryStates, schedulePostWithMedia, testPublisherOptions } from '@/testing/publisher';
import { GET as serveSignedMedia } from '@/app/api/media/[sha256]/route';
import { publishDueDeliveries } from './publish-due';

// The app configured with MEDIA_S3_* (an S3-compatible server started here, s3rver): an image uploaded through the
// API's own path lands in the bucket and nowhere on disk, and the publisher reads it from there, both ways networks
// take images: uploaded by us (Mastodon) and fetched by the platform from our signed URL (Threads).
const scratch = mkdtempSync(path.join(os.tmpdir(), 'semel-media-s3-'));
const s3 = await startTestS3(scratch, 'semel/');
Object.assign(process.env, {
  APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  MEDIA_DIR: path.join(scratch, 'media-dir'), // must stay empty
  MEDIA_S3_BUCKET: s3.config.bucket,
  MEDIA_S3_ENDPOINT: s3.config.endpoint!,
  MEDIA_S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
  MEDIA_S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
  MEDIA_S3_PREFIX: s3.config.prefix,
});
afterAll(async () => {
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Threads fetches `image_url` itself: the app's own signed-media route answers, reading from the bucket. */
async function fetchThroughApp(url: string): Promise<Uint8Array | null> {
  const sha256 = /\/api\/media\/([0-9a-f]{64})/.exec(url)?.[1];
  if (!sha256) return null;
  const response = await serveSignedMedia(new Request(url), { params: Promise.resolve({ sha256 }) });
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
}
const sandbox = await startTestSandbox({ fetchImage: fetchThroughApp });
const { db } = sandbox;

describe('media in an S3-compatible bucket (MEDIA_S3_*)', () => {
  const networks: ProviderName[] = ['mastodon', 'threads'];
  for (const network of networks) {
    it(`${network}: the uploaded image is stored in the bucket only, and the post goes out once showing it`, async () => {
      const account = await sandbox.connectAccount(network);
      const uploaded = await uploadMedia(
        db,
        { file: await makeImage('png', { seed: Math.floor(Math.random() * 1000) }), altText: `alt ${network}` },
        {
          workspaceId: account.workspaceId,
          idempotencyKey: randomUUID(),
          actor: 'test',
          storage: getMediaStorage(),
        },
      );
      if (uploaded.kind !== 'ok') throw new Error(`upload refused: ${uploaded.kind}`);
      const [row] = await db.select().from(mediaTable).where(eq(mediaTable.id, uploaded.mediaId));
      expect(await s3.keys()).toContain(`semel/${row!.sha256.slice(0, 2)}/${row!.sha256.slice(2, 4)}/${row!.sha256}`);

      const text = sandbox.uniqueText(`${network} image from the bucket`);
      const deliveryId = await schedulePostWithMedia(db, {
        workspaceId: account.workspaceId,
        accountId: account.productAccountId,
        text,
        mediaIds: [uploaded.mediaId],
      });
      // No mediaStorage given: the publisher uses the app's configured store, as the scheduler does.
      expect((await publishDueDeliveries(db, testPublisherOptions(sandbox.url))).sent).toBe(1);
      expect((await deliveryStates(db, [deliveryId])).get(deliveryId)!.status).toBe('sent');
      const copies = (await sandbox.allPosts(account.sandboxAccount.id)).filter((p) => p.text === text);
      expect(copies.map((c) => c.media)).toEqual([
        [{ type: row!.type, altText: `alt ${network}`, sha256: row!.sha256 }],
      ]);
      expect(readdirSync(scratch)).not.toContain('media-dir');
    });
  }
});
