import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, mediaUploads } from '@/db/schema';
import { signedMediaUrl } from '@/lib/media/signed-url';
import { sha256Hex } from '@/lib/media/storage';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { holdLock, untilBlocked } from '@/testing/race';
import { serveRoutes } from '@/testing/route-server';
import { makeTestVideo } from '@/testing/video';
import { apiRequest, createApiFixture, noParams } from '@/testing/api-fixture';
import * as signedContent from '../../media/[sha256]/route';
import { POST as createPost } from '../posts/route';
import * as upload from './[id]/route';
import * as uploads from './route';

// Real HTTP on loopback (a dropped connection is a dropped connection), real Postgres, real files from ffmpeg.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'semel-uploads-'));
process.env.MEDIA_DIR = path.join(scratch, 'media');
process.env.SEMEL_DATA_DIR = path.join(scratch, 'data');
process.env.MEDIA_VIDEO_MAX_BYTES = String(64 * 1024 * 1024);
process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
const uploadDir = path.join(scratch, 'data', 'uploads');

const fixture = await createApiFixture();
const server = await serveRoutes({
  '/api/v1/uploads': uploads,
  '/api/v1/uploads/[id]': upload,
  '/api/media/[sha256]': signedContent,
});
const content = server;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;
let clip: Buffer;
let otherClip: Buffer;
beforeAll(async () => {
  [tenant, other] = [await fixture.tenant(), await fixture.tenant()];
  clip = readFileSync(await makeTestVideo(path.join(scratch, 'clip.mp4'), { seconds: 2 }));
  otherClip = readFileSync(await makeTestVideo(path.join(scratch, 'other.mp4'), { seconds: 1, seed: 2 }));
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const b64 = (text: string) => Buffer.from(text).toString('base64');
const tus = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  'tus-resumable': '1.0.0',
  ...extra,
});

async function create(length: number, options: { token?: string; type?: string } = {}) {
  return fetch(`${server.origin}/api/v1/uploads`, {
    method: 'POST',
    headers: tus(options.token ?? tenant.token, {
      'upload-length': String(length),
      'upload-metadata': `filename ${b64('clip.mp4')},filetype ${b64(options.type ?? 'video/mp4')}`,
    }),
  });
}
const idOf = (created: Response) => created.headers.get('location')!.split('/').pop()!;

const patch = (id: string, offset: number, bytes: Buffer, token = tenant.token) =>
  fetch(`${server.origin}/api/v1/uploads/${id}`, {
    method: 'PATCH',
    headers: tus(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
    body: new Uint8Array(bytes),
  });
const head = (id: string, token = tenant.token) =>
  fetch(`${server.origin}/api/v1/uploads/${id}`, { method: 'HEAD', headers: tus(token) });

/** One upload, whole, in one PATCH: the media id its finish answered with. */
async function uploadWhole(bytes: Buffer) {
  const id = idOf(await create(bytes.length));
  const done = await patch(id, 0, bytes);
  expect(done.status).toBe(204);
  return { id, mediaId: done.headers.get('semel-media-id')! };
}

/** A PATCH whose connection drops after `sent` bytes of a body declared longer (the client vanishes mid-chunk). */
function patchThenDrop(id: string, offset: number, body: Buffer, sent: number) {
  return new Promise<void>((resolve) => {
    const url = new URL(`${server.origin}/api/v1/uploads/${id}`);
    const req = httpRequest(url, {
      method: 'PATCH',
      headers: {
        ...tus(tenant.token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
        'content-length': String(body.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, sent), () => setTimeout(() => req.destroy(), 200));
  });
}

const storedFiles = () => {
  const root = process.env.MEDIA_DIR!;
  return existsSync(root)
    ? readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /[0-9a-f]{64}$/.test(f))
    : [];
};
const uploadFiles = () => (existsSync(uploadDir) ? readdirSync(uploadDir).filter((f) => !f.endsWith('.json')) : []);
const mediaCount = async (workspaceId: string) =>
  (await fixture.db.select({ n: count() }).from(media).where(eq(media.workspaceId, workspaceId)))[0]!.n;

describe('tus uploads at /api/v1/uploads', () => {
  it('a dropped connection resumes at its offset (HEAD), and the finish makes one media row and one stored file', async () => {
    const before = storedFiles().length;
    const created = await create(clip.length);
    expect(created.status).toBe(201);
    const id = idOf(created);
    const half = Math.floor(clip.length / 2);
    expect((await patch(id, 0, clip.subarray(0, half))).headers.get('upload-offset')).toBe(String(half));

    // The second half's connection drops partway: what arrived is kept, the rest is sent again from there.
    await patchThenDrop(id, half, clip.subarray(half), Math.floor((clip.length - half) / 2));
    const resumed = await head(id);
    expect(resumed.status).toBe(200);
    const offset = Number(resumed.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(half);
    expect(offset).toBeLessThan(clip.length);
    expect(resumed.headers.get('upload-length')).toBe(String(clip.length));

    const done = await patch(id, offset, clip.subarray(offset));
    expect(done.status).toBe(204);
    expect(done.headers.get('upload-offset')).toBe(String(clip.length));
    const mediaId = done.headers.get('semel-media-id')!;
    const rows = await fixture.db.select().from(media).where(eq(media.id, mediaId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      workspaceId: tenant.workspace.id,
      sha256: sha256Hex(clip),
      type: 'video/mp4',
      width: 320,
      height: 240,
      size: clip.length,
      container: 'mp4',
      videoCodec: 'h264',
      audioCodec: 'aac',
      rotation: 0,
    });
    expect(rows[0]!.durationMs).toBeGreaterThan(1900);
    expect(rows[0]!.frameRate).toBe(30);
    // The video and its cover frame are stored, and the tus file is gone.
    expect(storedFiles().length).toBe(before + 2);
    expect(storedFiles().some((f) => f.endsWith(rows[0]!.coverSha256!))).toBe(true);
    expect(uploadFiles()).not.toContain(id);

    // After the finish: HEAD and a repeated last PATCH say it is done, with the same media; GET shows it.
    expect((await head(id)).headers.get('semel-media-id')).toBe(mediaId);
    expect((await patch(id, offset, clip.subarray(offset))).headers.get('semel-media-id')).toBe(mediaId);
    const status = await fetch(`${server.origin}/api/v1/uploads/${id}`, { headers: tus(tenant.token) });
    expect(await status.json()).toMatchObject({
      status: 'finished',
      offset: clip.length,
      media: { id: mediaId, type: 'video/mp4', video: { container: 'mp4', videoCodec: 'h264' } },
    });
    expect(await mediaCount(tenant.workspace.id)).toBeGreaterThanOrEqual(1);
  });

  it('the same bytes in two uploads are two media rows over one stored file', async () => {
    const first = await uploadWhole(otherClip);
    const files = storedFiles().length;
    const second = await uploadWhole(otherClip);
    expect(second.mediaId).not.toBe(first.mediaId);
    expect(storedFiles().length).toBe(files);
    const rows = await fixture.db
      .select({ sha256: media.sha256 })
      .from(media)
      .where(eq(media.sha256, sha256Hex(otherClip)));
    expect(rows).toHaveLength(2);
  });

  it('a finish run twice at once (complete bytes, the first finish lost): one media row, both answers name it', async () => {
    const id = idOf(await create(clip.length));
    // The bytes landed but the process stopped before the finish: the next HEAD finishes.
    writeFileSync(path.join(uploadDir, id), clip);
    const release = await holdLock(fixture.db, sql`select 1 from media_uploads where id = ${id} for update`);
    const answers = [head(id), head(id)];
    // Both finishes have probed, hashed and stored, and wait on the upload's row: the race is at the row.
    await untilBlocked(fixture.db, 'select "media_id"', 2);
    await release();
    const [a, b] = await Promise.all(answers);
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.headers.get('semel-media-id')).toBe(b!.headers.get('semel-media-id'));
    const [row] = await fixture.db.select().from(mediaUploads).where(eq(mediaUploads.id, id));
    expect(row).toMatchObject({ status: 'finished', mediaId: a!.headers.get('semel-media-id') });
    const made = await fixture.db
      .select({ n: count() })
      .from(media)
      .where(and(eq(media.workspaceId, tenant.workspace.id), eq(media.id, row!.mediaId!)));
    expect(made[0]!.n).toBe(1);
  });

  it('I6 — another workspace’s upload id is a 404 for every method', async () => {
    const id = idOf(await create(clip.length));
    expect((await head(id, other.token)).status).toBe(404);
    expect((await patch(id, 0, clip.subarray(0, 10), other.token)).status).toBe(404);
    const get = await fetch(`${server.origin}/api/v1/uploads/${id}`, { headers: tus(other.token) });
    expect(get.status).toBe(404);
    const del = await fetch(`${server.origin}/api/v1/uploads/${id}`, { method: 'DELETE', headers: tus(other.token) });
    expect(del.status).toBe(404);
    expect(Number((await head(id)).headers.get('upload-offset'))).toBe(0); // untouched
  });

  it('refuses a declared length over MEDIA_VIDEO_MAX_BYTES (413) and a type that is not a video (415): problem+json, nothing stored', async () => {
    const rows = (await fixture.db.select({ n: count() }).from(mediaUploads))[0]!.n;
    const files = uploadFiles().length;
    const big = await create(64 * 1024 * 1024 + 1);
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('application/problem+json');
    expect((await big.json()).detail).toMatch(/at most 0\.06 GiB \(MEDIA_VIDEO_MAX_BYTES\)/);
    const image = await create(1000, { type: 'image/png' });
    expect(image.status).toBe(415);
    expect(image.headers.get('content-type')).toBe('application/problem+json');
    const unsigned = await create(10, { token: 'not-a-key' });
    expect(unsigned.status).toBe(401);
    expect((await fixture.db.select({ n: count() }).from(mediaUploads))[0]!.n).toBe(rows);
    expect(uploadFiles().length).toBe(files);
  });

  it('refuses a file that is not a video we take at its last byte: 422 problem+json, nothing stored, the upload gone', async () => {
    const bytes = Buffer.from('not a video at all, just text named .mp4\n'.repeat(100));
    const files = storedFiles().length;
    const before = await mediaCount(tenant.workspace.id);
    const id = idOf(await create(bytes.length));
    const done = await patch(id, 0, bytes);
    expect(done.status).toBe(422);
    expect(done.headers.get('content-type')).toBe('application/problem+json');
    expect((await done.json()).detail).toMatch(/not a video we can read.*Nothing was stored/);
    expect(storedFiles().length).toBe(files);
    expect(await mediaCount(tenant.workspace.id)).toBe(before);
    expect(uploadFiles()).not.toContain(id);
    expect((await head(id)).status).toBe(410);
  });
});

describe('the signed content route serves a video in ranges', () => {
  it('206 with the asked bytes, Content-Length and Content-Range; whole with 200; past the end 416', async () => {
    const { mediaId } = await uploadWhole(clip);
    const [row] = await fixture.db.select().from(media).where(eq(media.id, mediaId));
    const url = signedMediaUrl({
      origin: content.origin,
      sha256: row!.sha256,
      encryptionKey: TEST_ENCRYPTION_KEY,
    });
    const part = await fetch(url, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-length')).toBe('1000');
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${clip.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(100, 1100))).toBe(true);
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 10))).toBe(true);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip)).toBe(true);
    expect((await fetch(url, { headers: { range: `bytes=${clip.length}-` } })).status).toBe(416);
    // The cover is a JPEG at its own signed URL.
    const cover = await fetch(
      signedMediaUrl({ origin: content.origin, sha256: row!.coverSha256!, encryptionKey: TEST_ENCRYPTION_KEY }),
    );
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('a post with a video', () => {
  it('is refused (422) for a target whose network takes no video, naming the network and the account', async () => {
    const { mediaId } = await uploadWhole(otherClip);
    const response = await createPost(
      apiRequest('/api/v1/posts', {
        method: 'POST',
        token: tenant.token,
        key: crypto.randomUUID(),
        body: {
          text: 'A clip',
          accountIds: [tenant.accounts[0]!.id],
          scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
          mediaIds: [mediaId],
        },
      }),
      noParams,
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(body.errors.mediaIds).toEqual(['X takes no video (@t)']);
  });
});
