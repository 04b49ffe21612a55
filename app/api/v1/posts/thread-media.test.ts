import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMedia, setRequireAltText } from '@/db/queries/media';
import { postMedia } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { GET as getPost, PATCH as patchPost } from './[id]/route';
import { POST as createPost } from './route';

// Images on thread parts through the public API (docs/api.md#images): `parts[].mediaIds`, up to 4 per part, checked
// like a post's (the workspace's own images, its alt-text rule, each network's limits), reported per part, stored per
// part, returned per part, kept or replaced by an edit. Refusals store nothing.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
});

const image = (workspaceId: string, overrides: Partial<{ altText: string; type: string; size: number }> = {}) =>
  insertMedia(db, {
    workspaceId,
    sha256: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    type: 'image/jpeg',
    width: 64,
    height: 48,
    size: 2_000,
    altText: `alt ${randomUUID().slice(0, 6)}`,
    createdBy: 'test',
    ...overrides,
  });

const texts = (n: number) => {
  const tag = randomUUID().slice(0, 8);
  return Array.from({ length: n }, (_, k) => `${tag} part ${k + 1}`);
};
const thread = (parts: { text: string; mediaIds?: string[] }[], overrides: Record<string, unknown> = {}) => ({
  kind: 'thread',
  parts,
  accountIds: tenant.accounts.map((a) => a.id),
  ...overrides,
});
const create = (payload: unknown, key = randomUUID()) =>
  createPost(apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key, body: payload }), noParams);
const get = async (id: string) =>
  (await getPost(apiRequest(`/api/v1/posts/${id}`, { token: tenant.token }), idParams(id))).json();
const patch = (id: string, payload: unknown) =>
  patchPost(
    apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token: tenant.token, key: randomUUID(), body: payload }),
    idParams(id),
  );
const storedCount = async () =>
  Number(([...(await db.execute<{ n: number }>(sql`select count(*)::int as n from posts`))][0] as { n: number }).n);
const storedMedia = async (postId: string) =>
  (
    await db
      .select({ part: postMedia.part, position: postMedia.position, mediaId: postMedia.mediaId })
      .from(postMedia)
      .where(eq(postMedia.postId, postId))
      .orderBy(asc(postMedia.part), asc(postMedia.position))
  ).map((r) => `${r.part}.${r.position}:${r.mediaId}`);

async function expectRefused(payload: unknown, field: string, message: RegExp) {
  const before = await storedCount();
  const res = await create(payload);
  expect(res.status).toBe(422);
  const problem = await res.json();
  expect(problem.errors?.[field]?.join(' ')).toMatch(message);
  expect(Object.keys(problem.errors)).toEqual([field]);
  expect(await storedCount()).toBe(before);
}

describe('POST /api/v1/posts — a thread with images on its parts', () => {
  it('stores each part its own images, in order, and returns them with the part (create and GET alike)', async () => {
    const [a, b, c] = [
      await image(tenant.workspace.id),
      await image(tenant.workspace.id),
      await image(tenant.workspace.id),
    ];
    const [t1, t2, t3] = texts(3);
    const res = await create(
      thread([{ text: t1! }, { text: t2!, mediaIds: [b.id, a.id] }, { text: t3!, mediaIds: [c.id] }]),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    const shape = (m: typeof a) => ({
      id: m.id,
      type: m.type,
      width: 64,
      height: 48,
      size: 2_000,
      altText: m.altText,
      url: `/api/v1/media/${m.id}/content`,
    });
    expect(created.parts.map((p: { media: unknown[] }) => p.media)).toEqual([[], [shape(b), shape(a)], [shape(c)]]);
    const media = (post: { parts: { text: string; media: unknown[] }[] }) =>
      post.parts.map((p) => ({ text: p.text, media: p.media }));
    expect(media(await get(created.id))).toEqual(media(created));
    expect(await storedMedia(created.id)).toEqual([`1.0:${b.id}`, `1.1:${a.id}`, `2.0:${c.id}`]);
  });

  it('refuses a top-level mediaIds on a thread (its images go on its parts), naming the field', async () => {
    const img = await image(tenant.workspace.id);
    const [t1, t2] = texts(2);
    await expectRefused(
      thread([{ text: t1! }, { text: t2! }], { mediaIds: [img.id] }),
      'mediaIds',
      /parts\[\]\.mediaIds/,
    );
  });

  it('refuses 5 images on a part, naming the part', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(async () => (await image(tenant.workspace.id)).id));
    const [t1, t2] = texts(2);
    await expectRefused(
      thread([{ text: t1! }, { text: t2!, mediaIds: ids }]),
      'parts.1.mediaIds',
      /At most 4 images per part/,
    );
  });

  it("refuses another workspace's image on a part exactly like a missing one (I6)", async () => {
    const foreign = await image(other.workspace.id);
    const [t1, t2] = texts(2);
    await expectRefused(
      thread([{ text: t1!, mediaIds: [foreign.id] }, { text: t2! }]),
      'parts.0.mediaIds',
      /do not exist in this workspace/,
    );
  });

  it('refuses the same image twice on one part, but takes it on two parts', async () => {
    const img = await image(tenant.workspace.id);
    const [t1, t2] = texts(2);
    await expectRefused(
      thread([{ text: t1! }, { text: t2!, mediaIds: [img.id, img.id] }]),
      'parts.1.mediaIds',
      /attached twice/,
    );
    const res = await create(
      thread([
        { text: t1!, mediaIds: [img.id] },
        { text: t2!, mediaIds: [img.id] },
      ]),
    );
    expect(res.status).toBe(201);
  });

  it("applies the workspace's alt-text rule to every part's images", async () => {
    const bare = await image(tenant.workspace.id, { altText: '' });
    const [t1, t2, t3] = texts(3);
    await setRequireAltText(db, { workspaceId: tenant.workspace.id, requireAltText: true });
    await expectRefused(
      thread([{ text: t1! }, { text: t2! }, { text: t3!, mediaIds: [bare.id] }]),
      'parts.2.mediaIds',
      /needs alt text/,
    );
    await setRequireAltText(db, { workspaceId: tenant.workspace.id, requireAltText: false });
    try {
      expect((await create(thread([{ text: t1! }, { text: t2! }, { text: t3!, mediaIds: [bare.id] }]))).status).toBe(
        201,
      );
    } finally {
      await setRequireAltText(db, { workspaceId: tenant.workspace.id, requireAltText: true });
    }
  });

  it("checks each part's images against each account's network (Threads takes no GIF), per part", async () => {
    const threadsAccount = await makeAccount(db, tenant.workspace.id, 'threads');
    const gif = await image(tenant.workspace.id, { type: 'image/gif' });
    const [t1, t2] = texts(2);
    await expectRefused(
      thread([{ text: t1! }, { text: t2!, mediaIds: [gif.id] }], { accountIds: [threadsAccount.id] }),
      'parts.1.mediaIds',
      /Image 1 \(GIF\) is not accepted by .* \(Threads\)/,
    );
  });

  it('I3 — the same key with the same part images replays; with other part images it is refused, nothing written', async () => {
    const [a, b] = [await image(tenant.workspace.id), await image(tenant.workspace.id)];
    const [t1, t2] = texts(2);
    const key = randomUUID();
    const first = await create(thread([{ text: t1! }, { text: t2!, mediaIds: [a.id] }]), key);
    expect(first.status).toBe(201);
    const replay = await create(thread([{ text: t1! }, { text: t2!, mediaIds: [a.id] }]), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(await first.text());
    const before = await storedCount();
    for (const parts of [
      [{ text: t1! }, { text: t2!, mediaIds: [b.id] }],
      [{ text: t1!, mediaIds: [a.id] }, { text: t2! }],
      [{ text: t1! }, { text: t2! }],
    ]) {
      const res = await create(thread(parts), key);
      expect(res.status).toBe(422);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await storedCount()).toBe(before);
  });
});

describe('PATCH /api/v1/posts/:id — a thread part keeps or changes its images', () => {
  it('omitted mediaIds keep the part’s images, new ones replace them, [] removes them', async () => {
    const [a, b] = [await image(tenant.workspace.id), await image(tenant.workspace.id)];
    const [t1, t2, t3] = texts(3);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const created = await (
      await create(thread([{ text: t1!, mediaIds: [a.id] }, { text: t2! }], { scheduledAt: later }))
    ).json();

    // Text only: the images stay with their part.
    let res = await patch(created.id, { parts: [{ text: `${t1} edited` }, { text: t2! }] });
    expect(res.status).toBe(200);
    expect(await storedMedia(created.id)).toEqual([`0.0:${a.id}`]);
    // A time change leaves the parts and their images alone.
    expect((await patch(created.id, { scheduledAt: later })).status).toBe(200);
    expect(await storedMedia(created.id)).toEqual([`0.0:${a.id}`]);

    // Reordered with the images sent explicitly: each goes with its part; a third part with its own.
    res = await patch(created.id, {
      parts: [
        { text: t2!, mediaIds: [] },
        { text: `${t1} edited`, mediaIds: [a.id] },
        { text: t3!, mediaIds: [b.id] },
      ],
    });
    expect(res.status).toBe(200);
    const edited = await res.json();
    expect(edited.parts.map((p: { media: { id: string }[] }) => p.media.map((m) => m.id))).toEqual([
      [],
      [a.id],
      [b.id],
    ]);
    const media = (post: { parts: { text: string; media: unknown[] }[] }) =>
      post.parts.map((p) => ({ text: p.text, media: p.media }));
    expect(media(await get(created.id))).toEqual(media(edited));
    expect(await storedMedia(created.id)).toEqual([`1.0:${a.id}`, `2.0:${b.id}`]);
  });

  it('refuses a foreign or too many images on an edited part with the part named, changing nothing', async () => {
    const mine = await image(tenant.workspace.id);
    const foreign = await image(other.workspace.id);
    const [t1, t2] = texts(2);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const created = await (
      await create(thread([{ text: t1! }, { text: t2!, mediaIds: [mine.id] }], { scheduledAt: later }))
    ).json();
    let res = await patch(created.id, { parts: [{ text: t1!, mediaIds: [foreign.id] }, { text: t2! }] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors['parts.0.mediaIds'].join(' ')).toMatch(/do not exist in this workspace/);
    res = await patch(created.id, {
      parts: [{ text: t1! }, { text: t2!, mediaIds: [mine.id, mine.id, mine.id, mine.id, mine.id] }],
    });
    expect(res.status).toBe(422);
    expect((await res.json()).errors['parts.1.mediaIds'].join(' ')).toMatch(/At most 4 images per part/);
    expect(await storedMedia(created.id)).toEqual([`1.0:${mine.id}`]);
    expect((await get(created.id)).parts.map((p: { text: string }) => p.text)).toEqual([t1, t2]);
  });

  it("an edit that adds a Bluesky account checks the kept images against Bluesky's limits", async () => {
    const large = await image(tenant.workspace.id, { size: 2_000_000 });
    const bluesky = await makeAccount(db, tenant.workspace.id, 'bluesky');
    const [t1, t2] = texts(2);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const response = await create(thread([{ text: t1! }, { text: t2!, mediaIds: [large.id] }], { scheduledAt: later }));
    const created = await response.json();
    expect(response.status, JSON.stringify(created)).toBe(201);
    const res = await patch(created.id, { accountIds: [...tenant.accounts.map((a) => a.id), bluesky.id] });
    expect(res.status).toBe(422);
    expect((await res.json()).errors['parts.1.mediaIds'].join(' ')).toMatch(/too large for .* \(Bluesky/);
    expect((await get(created.id)).deliveries.map((d: { accountId: string }) => d.accountId)).not.toContain(bluesky.id);
  });
});
