import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMedia } from '@/db/queries/media';
import { deliveries } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { GET as getPost, PATCH as patchPost } from './[id]/route';
import { POST as createPost } from './route';

// Per-account formats through the public API (docs/api.md): `formats: { [accountId]: format }`, checked against
// each account's network (Instagram takes `story`, one image or one video), stored on the account's delivery and
// returned with the post. Every refusal is a 422 naming the field, and stores nothing.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let instagram: Awaited<ReturnType<typeof makeAccount>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  instagram = await makeAccount(db, tenant.workspace.id, { provider: 'instagram', handle: '@brand_ig' });
});

const jpeg = () =>
  insertMedia(db, {
    workspaceId: tenant.workspace.id,
    sha256: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    type: 'image/jpeg',
    width: 1080,
    height: 1920,
    size: 2_000,
    altText: 'alt',
    createdBy: 'test',
  });
const create = (payload: unknown) =>
  createPost(
    apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key: randomUUID(), body: payload }),
    noParams,
  );
const storedPosts = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from posts`))[0]!.n;

describe('POST /api/v1/posts — formats', () => {
  it('a Story on Instagram: stored on its delivery, returned with the post, the other account left as a post', async () => {
    const image = await jpeg();
    const [x] = tenant.accounts;
    const res = await create({
      text: `story ${randomUUID()}`,
      accountIds: [instagram.id, x!.id],
      mediaIds: [image.id],
      formats: { [instagram.id]: 'story' },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.formats).toEqual({ [instagram.id]: 'story' });
    const stored = await db
      .select({ accountId: deliveries.accountId, format: deliveries.format })
      .from(deliveries)
      .where(eq(deliveries.postId, body.id));
    expect(new Map(stored.map((d) => [d.accountId, d.format]))).toEqual(
      new Map([
        [instagram.id, 'story'],
        [x!.id, null],
      ]),
    );
    const read = await (
      await getPost(apiRequest(`/api/v1/posts/${body.id}`, { token: tenant.token }), idParams(body.id))
    ).json();
    expect(read.formats).toEqual({ [instagram.id]: 'story' });
  });

  it('refuses with 422, storing nothing: an unknown format, a format on a network without any, a Story of two images or none, a format on a reply, an account not in the post', async () => {
    const [x] = tenant.accounts;
    const [a, b] = [await jpeg(), await jpeg()];
    const before = await storedPosts();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { accountIds: [instagram.id], mediaIds: [a.id], formats: { [instagram.id]: 'reel_story' } },
        `formats.${instagram.id}`,
        /takes “story”, not “reel_story”/,
      ],
      [{ accountIds: [x!.id], formats: { [x!.id]: 'story' } }, `formats.${x!.id}`, /publishes one way only/],
      [
        { accountIds: [instagram.id], mediaIds: [a.id, b.id], formats: { [instagram.id]: 'story' } },
        `formats.${instagram.id}`,
        /one image or one video/,
      ],
      [
        { accountIds: [instagram.id], formats: { [instagram.id]: 'story' } },
        'mediaIds',
        /publishes only posts with an image or a video/,
      ],
      [
        {
          accountIds: [instagram.id],
          kind: 'reply',
          inReplyTo: '1',
          mediaIds: [a.id],
          formats: { [instagram.id]: 'story' },
        },
        'formats',
        /Only posts take a format/,
      ],
      [
        { accountIds: [x!.id], formats: { [instagram.id]: 'story' } },
        `formats.${instagram.id}`,
        /Not one of accountIds/,
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await create({ text: `refused ${randomUUID()}`, ...payload });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect((await res.json()).errors[field].join(' ')).toMatch(message);
    }
    expect(await storedPosts()).toBe(before);
  });

  it('a refusal keeps nothing, not even its key: the corrected body under the same key is created', async () => {
    const key = randomUUID();
    const send = (payload: unknown) =>
      createPost(apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key, body: payload }), noParams);
    const image = await jpeg();
    const text = `retried ${randomUUID()}`;
    const refused = await send({
      text,
      accountIds: [instagram.id],
      mediaIds: [image.id],
      formats: { [instagram.id]: 'reel_story' },
    });
    expect(refused.status).toBe(422);
    const fixed = await send({
      text,
      accountIds: [instagram.id],
      mediaIds: [image.id],
      formats: { [instagram.id]: 'story' },
    });
    expect(fixed.status).toBe(201);
    expect((await fixed.json()).formats).toEqual({ [instagram.id]: 'story' });
  });

  it('PATCH adding an Instagram account to a text-only post is refused (422 on mediaIds), changing nothing', async () => {
    const [x] = tenant.accounts;
    const created = await create({ text: `words only ${randomUUID()}`, accountIds: [x!.id] });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const res = await patchPost(
      apiRequest(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        token: tenant.token,
        key: randomUUID(),
        body: { accountIds: [x!.id, instagram.id] },
      }),
      idParams(id),
    );
    expect(res.status).toBe(422);
    expect((await res.json()).errors.mediaIds.join(' ')).toMatch(
      /@brand_ig \(Instagram\) publishes only posts with an image or a video/,
    );
    const kept = await db.select({ accountId: deliveries.accountId }).from(deliveries).where(eq(deliveries.postId, id));
    expect(kept.map((d) => d.accountId)).toEqual([x!.id]);
  });
});

describe('POST /api/v1/posts — a first comment on Instagram (a thread of two: the post, then its comment)', () => {
  const thread = (parts: { text: string; mediaIds?: string[] }[]) => ({
    kind: 'thread',
    parts,
    accountIds: [instagram.id],
  });

  it('the post with its image and a text comment: accepted, two parts on the account', async () => {
    const image = await jpeg();
    const tag = randomUUID().slice(0, 8);
    const res = await create(thread([{ text: `${tag} post`, mediaIds: [image.id] }, { text: `${tag} first comment` }]));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.parts.map((p: { text: string }) => p.text)).toEqual([`${tag} post`, `${tag} first comment`]);
    const parts = await db.select({ part: deliveries.part }).from(deliveries).where(eq(deliveries.postId, body.id));
    expect(parts.map((p) => p.part).sort()).toEqual([0, 1]);
  });

  it('refused, nothing stored: a third part, a comment over 2,200 characters or with 31 hashtags, an image on the comment, no image on the post, a reply on its own', async () => {
    const before = await storedPosts();
    const image = await jpeg();
    const cases: [unknown, string][] = [
      [thread([{ text: 'post', mediaIds: [image.id] }, { text: 'one' }, { text: 'two' }]), 'parts'],
      [thread([{ text: 'post', mediaIds: [image.id] }, { text: 'x'.repeat(2_201) }]), 'parts.1.text'],
      [
        thread([
          { text: 'post', mediaIds: [image.id] },
          { text: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') },
        ]),
        'parts.1.text',
      ],
      [{ kind: 'reply', inReplyTo: '17895695668004550', text: 'a comment', accountIds: [instagram.id] }, 'accountIds'],
      [
        thread([
          { text: 'post', mediaIds: [image.id] },
          { text: 'comment', mediaIds: [(await jpeg()).id] },
        ]),
        'parts.1.mediaIds',
      ],
      [thread([{ text: 'post' }, { text: 'comment' }]), 'parts.0.mediaIds'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(payload);
      expect(res.status, field).toBe(422);
      const problem = await res.json();
      expect(Object.keys(problem.errors ?? {}), field).toContain(field);
    }
    expect(await storedPosts()).toBe(before);
  });
});
