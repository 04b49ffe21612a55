import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRequireAltText } from '@/db/queries/media';
import { media, postMedia } from '@/db/schema';
import { apiRequest, createApiFixture, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { sha256Hex } from '@/lib/media/storage';
import { jpegWithGpsExif, makeImage } from '@/testing/images';
import { POST as createPost } from '../posts/route';
import { POST as upload } from './route';

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-media-'));
process.env.MEDIA_DIR = mediaDir;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const fixture = await createApiFixture();
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  tenant = await fixture.tenant();
});

function uploadRequest(
  options: { key?: string; token?: string; file?: Uint8Array; filename?: string; type?: string; altText?: string } = {},
) {
  const form = new FormData();
  if (options.file)
    form.set(
      'file',
      new Blob([Buffer.from(options.file)], { type: options.type ?? 'image/png' }),
      options.filename ?? 'a.png',
    );
  if (options.altText !== undefined) form.set('altText', options.altText);
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? tenant.token}` };
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  return new Request('http://localhost/api/v1/media', { method: 'POST', headers, body: form });
}

const mediaRows = async (workspaceId: string) =>
  (await fixture.db.select({ n: count() }).from(media).where(eq(media.workspaceId, workspaceId)))[0]!.n;

describe('POST /api/v1/media', () => {
  it('stores the image by content: 201 with its type, size and alt text; a JPEG named .png is a JPEG; EXIF is gone', async () => {
    const file = await jpegWithGpsExif({ width: 40, height: 20 });
    const res = await upload(
      uploadRequest({ key: randomUUID(), file, filename: 'holiday.png', altText: 'A beach' }),
      noParams,
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; size: number };
    expect(body).toEqual({
      id: body.id,
      type: 'image/jpeg',
      width: 20,
      height: 40,
      size: body.size,
      altText: 'A beach',
      url: `/api/v1/media/${body.id}/content`,
    });
    const [row] = await fixture.db.select().from(media).where(eq(media.id, body.id));
    expect(row!.size).toBe(body.size);
    expect(row!.sha256).not.toBe(sha256Hex(file)); // what is stored is the stripped image, not the upload
    expect(row!.createdBy).toMatch(/^api_key:/);
  });

  it('I3 — the same key twice: one media row, the replay is the same answer marked as replayed', async () => {
    const before = await mediaRows(tenant.workspace.id);
    const key = randomUUID();
    const file = await makeImage('png', { seed: 1 });
    const first = await upload(uploadRequest({ key, file, altText: 'A square' }), noParams);
    const again = await upload(uploadRequest({ key, file, altText: 'A square' }), noParams);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
    expect(await mediaRows(tenant.workspace.id)).toBe(before + 1);
    // The same key with another image is refused, nothing written.
    const other = await upload(
      uploadRequest({ key, file: await makeImage('png', { seed: 2 }), altText: 'A square' }),
      noParams,
    );
    expect(other.status).toBe(422);
    expect(await mediaRows(tenant.workspace.id)).toBe(before + 1);
  });

  it('I3 — 20 parallel uploads with one key: one media row; the others wait (409) or get the replay', async () => {
    const { workspace, token } = await fixture.tenant();
    const key = randomUUID();
    const file = await makeImage('webp', { seed: 3 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => upload(uploadRequest({ key, token, file, altText: 'Parallel' }), noParams)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const executed = responses.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(executed).toHaveLength(1);
    // Each side of the race happened: one request ran, the others met the key taken (in flight or completed).
    expect(responses.filter((r) => r.status === 409 || r.headers.get('idempotent-replayed')).length).toBe(19);
    const ids = new Set(
      await Promise.all(
        responses.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: string }).id),
      ),
    );
    expect(ids.size).toBe(1);
    expect(await mediaRows(workspace.id)).toBe(1);
  });

  it('refusals store nothing: no key (400), not multipart (415), not an image (422), no alt text while required (422)', async () => {
    const before = await mediaRows(tenant.workspace.id);
    const png = await makeImage('png', { seed: 4 });
    expect((await upload(uploadRequest({ file: png, altText: 'x' }), noParams)).status).toBe(400);
    const json = await upload(
      apiRequest('/api/v1/media', { method: 'POST', token: tenant.token, key: randomUUID(), body: { file: 'x' } }),
      noParams,
    );
    expect(json.status).toBe(415);
    const text = await upload(
      uploadRequest({
        key: randomUUID(),
        file: new TextEncoder().encode('not an image'),
        filename: 'cat.jpg',
        altText: 'x',
      }),
      noParams,
    );
    expect(text.status).toBe(422);
    expect(((await text.json()) as { errors: Record<string, string[]> }).errors.file).toEqual([
      'Not a JPEG, PNG, GIF or WebP image (checked by its content)',
    ]);
    const key = randomUUID();
    const noAlt = await upload(uploadRequest({ key, file: png }), noParams);
    expect(noAlt.status).toBe(422);
    expect(((await noAlt.json()) as { errors: Record<string, string[]> }).errors.altText).toHaveLength(1);
    expect(await mediaRows(tenant.workspace.id)).toBe(before);
    // A refusal is not stored: the corrected request may reuse the key.
    expect((await upload(uploadRequest({ key, file: png, altText: 'Fixed' }), noParams)).status).toBe(201);
  });

  it('a body over 5 MB is refused (413) without being buffered, also when it announces no length (chunked)', async () => {
    const big = new Uint8Array(6 * 1024 * 1024);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= big.length) return controller.close();
        controller.enqueue(big.subarray(pulled, (pulled += 256 * 1024)));
      },
    });
    const res = await upload(
      new Request('http://localhost/api/v1/media', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant.token}`,
          'idempotency-key': randomUUID(),
          'content-type': 'multipart/form-data; boundary=x',
        },
        body: stream,
        duplex: 'half',
      } as RequestInit),
      noParams,
    );
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(big.length); // it stopped reading
  });

  it('alt text is optional once the workspace setting is off', async () => {
    const { workspace, token } = await fixture.tenant();
    await setRequireAltText(fixture.db, { workspaceId: workspace.id, requireAltText: false });
    const res = await upload(uploadRequest({ key: randomUUID(), token, file: await makeImage('gif') }), noParams);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { altText: string }).altText).toBe('');
  });
});

describe('POST /api/v1/posts with mediaIds', () => {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const post = (body: Record<string, unknown>, token = tenant.token) =>
    createPost(apiRequest('/api/v1/posts', { method: 'POST', token, key: randomUUID(), body }), noParams);
  const uploaded = async (file: Uint8Array, token = tenant.token) => {
    const res = await upload(uploadRequest({ key: randomUUID(), token, file, altText: 'An image' }), noParams);
    return ((await res.json()) as { id: string }).id;
  };

  it('attaches the images in order (post_media rows, part 0)', async () => {
    const ids = [
      await uploaded(await makeImage('png', { seed: 10 })),
      await uploaded(await makeImage('jpeg', { seed: 11 })),
    ];
    const res = await post({
      text: 'With images',
      accountIds: [tenant.accounts[0]!.id],
      scheduledAt: tomorrow,
      mediaIds: ids,
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const rows = await fixture.db.select().from(postMedia).where(eq(postMedia.postId, id)).orderBy(postMedia.position);
    expect(rows.map((r) => [r.part, r.position, r.mediaId])).toEqual([
      [0, 0, ids[0]],
      [0, 1, ids[1]],
    ]);
  });

  it("field errors: an image too large for Bluesky's 1 MB names the account; another workspace's image is missing; 5 images", async () => {
    const bluesky = await makeAccount(fixture.db, tenant.workspace.id, {
      provider: 'bluesky',
      handle: '@big.bsky.sandbox',
      baseUrl: '/api/sandbox/bluesky',
    });
    const big = await uploaded(await makeImage('png', { seed: 12, width: 1000, height: 800 }).then(noisy));
    const res = await post({ text: 'Too big', accountIds: [tenant.accounts[0]!.id, bluesky.id], mediaIds: [big] });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors.mediaIds).toEqual([
      expect.stringMatching(/^Image 1 is [\d.]+ MB: too large for @big\.bsky\.sandbox \(Bluesky takes up to 1 MB\)$/),
    ]);

    const stranger = await fixture.tenant();
    const theirs = await uploaded(await makeImage('png', { seed: 13 }), stranger.token);
    const foreign = await post({ text: 'Not mine', accountIds: [tenant.accounts[0]!.id], mediaIds: [theirs] });
    expect(((await foreign.json()) as { errors: Record<string, string[]> }).errors.mediaIds).toEqual([
      'One or more images do not exist in this workspace',
    ]);
    const five = await post({
      text: 'Five',
      accountIds: [tenant.accounts[0]!.id],
      mediaIds: Array.from({ length: 5 }, randomUUID),
    });
    expect(five.status).toBe(422);
  });
});

/** Random pixels do not compress: a PNG well over 1 MB and under 5 MB. */
async function noisy(png: Uint8Array): Promise<Uint8Array> {
  const sharp = (await import('sharp')).default;
  const { width, height } = await sharp(png).metadata();
  const pixels = randomBytes(width! * height! * 3);
  return new Uint8Array(
    await sharp(pixels, { raw: { width: width!, height: height!, channels: 3 } })
      .png()
      .toBuffer(),
  );
}
