import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { insertMedia, insertPostMedia } from '@/db/queries/media';
import { sha256OfFile } from '@/lib/media/media-storage';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { loadPublishMedia } from './post-media';

const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-publish-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const storage = createDiskMediaStorage(path.join(dir, 'media'));
const { db } = await createTestDatabase({ max: 5 });

const readAll = async (body: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('a post’s video as the providers get it', () => {
  it('carries its size, facts and cover URL, and streams its bytes whole or by range', async () => {
    const workspace = await makeWorkspace(db);
    const post = await makePost(db, workspace.id);
    const file = path.join(dir, 'video.mp4');
    const bytes = randomBytes(300_000);
    writeFileSync(file, bytes);
    const sha256 = await sha256OfFile(file);
    await storage.putFile(file, sha256);
    const cover = await storage.put(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
    const row = await insertMedia(db, {
      workspaceId: workspace.id,
      createdBy: 'user:test',
      sha256,
      type: 'video/quicktime',
      width: 1080,
      height: 1920,
      size: bytes.length,
      altText: '',
      durationMs: 30_000,
      videoCodec: 'hevc',
      audioCodec: null,
      frameRate: 29.97,
      rotation: 90,
      container: 'mov',
      coverSha256: cover.sha256,
    });
    await insertPostMedia(db, { postId: post.id, mediaIds: [row.id] });
    const loaded = await loadPublishMedia(
      db,
      [{ deliveryId: 'd1', postId: post.id, baseUrl: '/api/sandbox/x', hasMedia: true }],
      { storage, encryptionKey: TEST_ENCRYPTION_KEY, origin: 'https://semel.example.test' },
    );
    const [video] = loaded.get('d1')!;
    expect(video).toMatchObject({
      mimeType: 'video/quicktime',
      sizeBytes: bytes.length,
      video: { container: 'mov', durationMs: 30_000, width: 1080, height: 1920, rotation: 90, videoCodec: 'hevc' },
    });
    expect(video!.coverUrl!()).toMatch(new RegExp(`^https://semel.example.test/api/media/${cover.sha256}\\?expires=`));
    expect((await readAll(await video!.stream())).equals(bytes)).toBe(true);
    expect((await readAll(await video!.stream({ start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(true);
  });
});
