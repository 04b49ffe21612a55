import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { getMediaStorage, sha256Hex } from '@/lib/media/storage';
import { makeImage } from '@/testing/images';
import { GET as getContent } from '../media/[id]/content/route';
import { POST as upload } from '../media/route';
import { GET as getPost } from './[id]/route';
import { GET as listPosts, POST as createPost } from './route';

// What an integrator sees of a post's images (docs/api.md#images): `media` on the post and on each thread part, each
// with a URL that the same API key reads — and that another workspace's key does not.

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-post-media-'));
process.env.MEDIA_DIR = mediaDir;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const fixture = await createApiFixture();
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
});

type Media = { id: string; type: string; altText: string; size: number; url: string };

async function uploadImage(seed: number, altText: string): Promise<Media> {
  const form = new FormData();
  form.set('file', new Blob([Buffer.from(await makeImage('png', { seed }))], { type: 'image/png' }), 'a.png');
  form.set('altText', altText);
  const response = await upload(
    new Request('http://localhost/api/v1/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'idempotency-key': randomUUID() },
      body: form,
    }),
    noParams,
  );
  expect(response.status).toBe(201);
  return response.json();
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();
const create = async (body: Record<string, unknown>) => {
  const response = await createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token: tenant.token,
      key: randomUUID(),
      body: { accountIds: tenant.accounts.map((a) => a.id), scheduledAt: tomorrow(), ...body },
    }),
    noParams,
  );
  expect(response.status).toBe(201);
  return response.json();
};
const read = async (url: string, token: string) => {
  const id = /^\/api\/v1\/media\/([^/]+)\/content$/.exec(url)![1]!;
  return getContent(apiRequest(url, { token }), idParams(id));
};
const shown = (m: Media) => ({
  id: m.id,
  type: 'image/png',
  width: expect.any(Number),
  height: expect.any(Number),
  size: m.size,
  altText: m.altText,
  url: `/api/v1/media/${m.id}/content`,
});

describe('media in GET /api/v1/posts and /posts/{id}', () => {
  it("a post's images: id, type, alt text, size and a URL the key reads, in GET /posts/{id} and the list", async () => {
    const [a, b] = [await uploadImage(1, 'A red square'), await uploadImage(2, 'A blue square')];
    const post = await create({ text: `With images ${randomUUID()}`, mediaIds: [b.id, a.id] });
    expect(post.media).toEqual([shown(b), shown(a)]);
    const one = await (
      await getPost(apiRequest(`/api/v1/posts/${post.id}`, { token: tenant.token }), idParams(post.id))
    ).json();
    expect(one.media).toEqual([shown(b), shown(a)]);
    const page = await (
      await listPosts(apiRequest('/api/v1/posts?limit=100', { token: tenant.token }), noParams)
    ).json();
    expect(page.data.find((p: { id: string }) => p.id === post.id).media).toEqual([shown(b), shown(a)]);
    const plain = await create({ text: `No images ${randomUUID()}` });
    expect(plain.media).toEqual([]);
  });

  it("each thread part lists its own images; the post's `media` is part 0's", async () => {
    const [first, second] = [await uploadImage(3, 'Part one'), await uploadImage(4, 'Part two')];
    const thread = await create({
      kind: 'thread',
      parts: [
        { text: `Thread ${randomUUID()} 1`, mediaIds: [first.id] },
        { text: 'Part 2' },
        { text: 'Part 3', mediaIds: [second.id] },
      ],
    });
    const got = await (
      await getPost(apiRequest(`/api/v1/posts/${thread.id}`, { token: tenant.token }), idParams(thread.id))
    ).json();
    expect(got.parts.map((p: { media: unknown }) => p.media)).toEqual([[shown(first)], [], [shown(second)]]);
    expect(got.media).toEqual([shown(first)]);
  });

  it("I6 — the URL serves the stored bytes with the key; another workspace's key, or one without posts:read, does not", async () => {
    const image = await uploadImage(5, 'A green square');
    const post = await create({ text: `Readable ${randomUUID()}`, mediaIds: [image.id] });
    const url = post.media[0].url as string;

    const served = await read(url, tenant.token);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(bytes.length).toBe(image.size);
    const stored = await getMediaStorage().get(sha256Hex(bytes));
    expect(stored && Buffer.from(stored).equals(Buffer.from(bytes))).toBe(true);

    const foreign = await read(url, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toBe('application/problem+json');
    const writeOnly = await makeScopedApiKey(fixture.db, tenant.workspace.id, ['posts:write']);
    expect((await read(url, writeOnly)).status).toBe(403);
    expect((await read(url, 'not-a-key')).status).toBe(401);
    expect((await read('/api/v1/media/not-a-uuid/content', tenant.token)).status).toBe(404);
  });
});
