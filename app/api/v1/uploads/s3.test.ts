import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '@/db/schema';
import { signedMediaUrl } from '@/lib/media/signed-url';
import { sha256Hex } from '@/lib/media/storage';
import { createApiFixture } from '@/testing/api-fixture';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { serveRoutes } from '@/testing/route-server';
import { startTestS3 } from '@/testing/s3';
import { makeTestVideo } from '@/testing/video';
import * as signedContent from '../../media/[sha256]/route';
import * as upload from './[id]/route';
import * as uploads from './route';

// A video through the tus route with the media in an S3-compatible bucket (MEDIA_S3_*, s3rver in this process):
// the bytes arrive in two PATCHes, the finish stores the video and its cover in the bucket only (nothing under
// MEDIA_DIR; the tus file is a local scratch file, gone after), and the signed content route answers a Range
// from the bucket, as Instagram and TikTok fetch a video. Real HTTP on loopback, real Postgres, a real file.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'semel-uploads-s3-'));
const s3 = await startTestS3(scratch, 'videos/');
Object.assign(process.env, {
  MEDIA_DIR: path.join(scratch, 'media'),
  SEMEL_DATA_DIR: path.join(scratch, 'data'),
  MEDIA_VIDEO_MAX_BYTES: String(64 * 1024 * 1024),
  APP_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  MEDIA_S3_BUCKET: s3.config.bucket,
  MEDIA_S3_ENDPOINT: s3.config.endpoint,
  MEDIA_S3_REGION: s3.config.region,
  MEDIA_S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
  MEDIA_S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
  MEDIA_S3_PREFIX: s3.config.prefix,
  MEDIA_S3_FORCE_PATH_STYLE: 'true',
});
const uploadDir = path.join(scratch, 'data', 'uploads');

const fixture = await createApiFixture();
const server = await serveRoutes({
  '/api/v1/uploads': uploads,
  '/api/v1/uploads/[id]': upload,
  '/api/media/[sha256]': signedContent,
});
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let clip: Buffer;
beforeAll(async () => {
  tenant = await fixture.tenant();
  clip = readFileSync(await makeTestVideo(path.join(scratch, 'clip.mp4'), { seconds: 2 }));
}, 120_000);
afterAll(async () => {
  await server.close();
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

const tus = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${tenant.token}`,
  'tus-resumable': '1.0.0',
  ...extra,
});
const patch = (id: string, offset: number, bytes: Buffer) =>
  fetch(`${server.origin}/api/v1/uploads/${id}`, {
    method: 'PATCH',
    headers: tus({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
    body: new Uint8Array(bytes),
  });
const filesUnder = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : []);

describe('tus uploads into an S3-compatible bucket', () => {
  it('two PATCHes, one finish: the video and its cover in the bucket only, served by Range from there', async () => {
    const created = await fetch(`${server.origin}/api/v1/uploads`, {
      method: 'POST',
      headers: tus({
        'upload-length': String(clip.length),
        'upload-metadata': `filename ${Buffer.from('clip.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
      }),
    });
    expect(created.status).toBe(201);
    const id = created.headers.get('location')!.split('/').pop()!;
    const half = Math.floor(clip.length / 2);
    expect((await patch(id, 0, clip.subarray(0, half))).headers.get('upload-offset')).toBe(String(half));
    const done = await patch(id, half, clip.subarray(half));
    expect(done.status).toBe(204);
    const [row] = await fixture.db
      .select()
      .from(media)
      .where(eq(media.id, done.headers.get('semel-media-id')!));
    expect(row).toMatchObject({ workspaceId: tenant.workspace.id, sha256: sha256Hex(clip), type: 'video/mp4' });

    // In the bucket under its prefix, addressed by SHA-256; nothing in MEDIA_DIR; the tus scratch file gone.
    // The same addresses as the disk store: <prefix><2 hex>/<2 hex>/<sha256>.
    const key = (sha256: string) => `videos/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
    expect((await s3.keys()).sort()).toEqual([key(row!.sha256), key(row!.coverSha256!)].sort());
    expect(filesUnder(process.env.MEDIA_DIR!)).toEqual([]);
    expect(filesUnder(uploadDir).filter((f) => f.includes(id) && !f.endsWith('.json'))).toEqual([]);

    const url = signedMediaUrl({ origin: server.origin, sha256: row!.sha256, encryptionKey: TEST_ENCRYPTION_KEY });
    const part = await fetch(url, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${clip.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(100, 1100))).toBe(true);
    const whole = await fetch(url);
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip)).toBe(true);
  });
});
