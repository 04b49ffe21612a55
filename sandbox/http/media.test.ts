import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeMultipart } from '@/lib/net/send';
import { createProviderClient } from '@/lib/providers';
import type { PublishMedia } from '@/lib/providers/types';
import { makeImage } from '@/testing/images';
import { sha256Of } from './media';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { startSandboxServer } from './node-server';
import { startTestSandbox } from '@/testing/sandbox';

// Each upload dialect refuses what its real server refuses: the sandbox is never more forgiving.
const sandbox = await startTestSandbox();

const post = (
  url: string,
  token: string,
  init: { json?: unknown; multipart?: Parameters<typeof encodeMultipart>[0] },
) => {
  const body = init.multipart ? encodeMultipart(init.multipart) : undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': body ? body.contentType : 'application/json',
      'linkedin-version': '202601',
      'x-restli-protocol-version': '2.0.0',
    },
    body: body ? new Uint8Array(body.data) : JSON.stringify(init.json),
  });
};
const imageFile = async (name: string, format: 'png' | 'gif' = 'png') => ({
  name,
  filename: 'i',
  contentType: `image/${format}`,
  data: await makeImage(format, { seed: Math.floor(Math.random() * 999) }),
});

describe('X media upload (POST /2/media/upload)', () => {
  it('keeps an image, refuses text and a GIF (the one-request endpoint takes none), and a tweet naming another user’s media', async () => {
    const a = await sandbox.connectAccount('x');
    const b = await sandbox.connectAccount('x');
    const base = `${sandbox.url}/api/sandbox/x`;
    const ok = await post(`${base}/2/media/upload`, a.token, {
      multipart: { fields: { media_category: 'tweet_image' }, files: [await imageFile('media')] },
    });
    expect(ok.status).toBe(200);
    const { data } = (await ok.json()) as { data: { id: string; media_key: string; size: number } };
    expect(data).toMatchObject({ id: expect.stringMatching(/^\d+$/), media_key: `3_${data.id}` });
    const text = await post(`${base}/2/media/upload`, a.token, {
      multipart: {
        fields: { media_category: 'tweet_image' },
        files: [{ name: 'media', filename: 'x.png', contentType: 'image/png', data: new TextEncoder().encode('hi') }],
      },
    });
    expect(text.status).toBe(400);
    const gif = await post(`${base}/2/media/upload`, a.token, {
      multipart: { fields: { media_category: 'tweet_image' }, files: [await imageFile('media', 'gif')] },
    });
    expect(gif.status).toBe(400);
    const foreign = await post(`${base}/2/tweets`, b.token, {
      json: { text: 'theirs', media: { media_ids: [data.id] } },
    });
    expect(foreign.status).toBe(400);
    expect(await sandbox.copies(b.sandboxAccount.id)).toBe(0);
  });
});

describe('Mastodon media (POST /api/v2/media)', () => {
  it('202 while processing, GET /api/v1/media/:id 206 then 200; a status naming it before then is refused (422)', async () => {
    const a = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(a.sandboxAccount.id, { processingMs: 700 });
    const base = `${sandbox.url}/api/sandbox/mastodon`;
    const res = await post(`${base}/api/v2/media`, a.token, {
      multipart: { fields: { description: 'Alt' }, files: [await imageFile('file')] },
    });
    expect(res.status).toBe(202);
    const attachment = (await res.json()) as { id: string; url: string | null; description: string };
    expect(attachment).toMatchObject({ url: null, description: 'Alt' });
    const show = () =>
      fetch(`${base}/api/v1/media/${attachment.id}`, { headers: { authorization: `Bearer ${a.token}` } });
    expect((await show()).status).toBe(206);
    const early = await post(`${base}/api/v1/statuses`, a.token, {
      json: { status: 'early', media_ids: [attachment.id] },
    });
    expect(early.status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 750));
    expect((await show()).status).toBe(200);
    await sandbox.setFaults(a.sandboxAccount.id, {});
    const status = await post(`${base}/api/v1/statuses`, a.token, {
      json: { status: 'ready', media_ids: [attachment.id] },
    });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { media_attachments: unknown[] }).media_attachments).toHaveLength(1);
  });
});

describe('LinkedIn images (initializeUpload, then PUT)', () => {
  it('a post naming an image whose bytes never arrived is refused; another member cannot PUT to the upload URL', async () => {
    const a = await sandbox.connectAccount('linkedin');
    const b = await sandbox.connectAccount('linkedin');
    const base = `${sandbox.url}/api/sandbox/linkedin`;
    const init = await post(`${base}/rest/images?action=initializeUpload`, a.token, {
      json: { initializeUploadRequest: { owner: a.platformUserId } },
    });
    expect(init.status).toBe(200);
    const { value } = (await init.json()) as { value: { uploadUrl: string; image: string } };
    expect(value.image).toMatch(/^urn:li:image:\d+$/);
    const png = await makeImage('png');
    const put = (token: string) =>
      fetch(value.uploadUrl, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body: new Uint8Array(png),
      });
    expect((await put(b.token)).status).toBe(404);
    const early = await post(`${base}/rest/posts`, a.token, {
      json: {
        author: a.platformUserId,
        commentary: 'early',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED' },
        lifecycleState: 'PUBLISHED',
        content: { media: { id: value.image, altText: 'A' } },
      },
    });
    expect(early.status).toBe(422);
    expect((await put(a.token)).status).toBe(201);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(0);
  });

  it('names the upload URL on the origin the caller used, so the token goes with the bytes', async () => {
    // Behind `next start`, request.url says localhost while the app called 127.0.0.1: an upload URL on another
    // host than the API base gets no token from the client (lib/providers/linkedin/images.ts), hence a 401.
    const a = await sandbox.connectAccount('linkedin');
    const caller = new URL(sandbox.url);
    const init = await fetch(`${sandbox.url}/api/sandbox/linkedin/rest/images?action=initializeUpload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.token}`,
        'content-type': 'application/json',
        'linkedin-version': '202601',
        'x-forwarded-host': `app.example:${caller.port}`,
      },
      body: JSON.stringify({ initializeUploadRequest: { owner: a.platformUserId } }),
    });
    expect(init.status).toBe(200);
    const { value } = (await init.json()) as { value: { uploadUrl: string } };
    expect(value.uploadUrl).toMatch(
      new RegExp(`^http://app\\.example:${caller.port}/api/sandbox/linkedin/upload/\\d+$`),
    );
  });
});

const store = createMemorySandboxStore();
const server = await startSandboxServer({ deps: { store, resolveScope: async () => [], hangMs: 2_000 } });
afterAll(() => server.close());

describe('the in-memory store keeps media like Postgres', () => {
  it('X: an image uploaded and posted shows on the copy with its alt text and hash', async () => {
    const platformUserId = String(Math.floor(Math.random() * 1e12));
    const token = randomUUID();
    const account = await store.registerAccount({
      platform: 'x',
      platformUserId,
      handle: `@m${platformUserId}`,
      token,
    });
    const client = createProviderClient(
      { provider: 'x', baseUrl: '/api/sandbox/x', platformUserId, accessToken: token },
      { origin: server.url },
    );
    const bytes = await makeImage('jpeg', { seed: 5 });
    const media: PublishMedia = {
      id: 'm1',
      sha256: sha256Of(bytes),
      mimeType: 'image/jpeg',
      altText: 'Alt',
      sizeBytes: bytes.length,
      read: async () => bytes,
      stream: async () => Readable.from([Buffer.from(bytes)]),
    };
    const result = await client.publish({
      text: 'memory image',
      kind: 'post',
      idempotencyKey: randomUUID(),
      media: [media],
    });
    expect(result.outcome).toBe('sent');
    const [copy] = await store.listAllPosts(account.id);
    expect(copy!.media).toEqual([{ type: 'image/jpeg', altText: 'Alt', sha256: sha256Of(bytes) }]);
  });
});
