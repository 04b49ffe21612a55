import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMedia } from '@/db/queries/media';
import { deliveries } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { GET as getPost, PATCH as patchPost } from './[id]/route';
import { POST as createPost } from './route';

// Per-account options through the public API (docs/api.md#options): `options: { [accountId]: { … } }`, checked by
// each account's network schema (ProviderMeta `options`; TikTok: a privacy level is required), stored on the
// account's delivery and returned with the post. Every refusal is a 422 naming the account and field, storing nothing.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let tiktok: Awaited<ReturnType<typeof makeAccount>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  tiktok = await makeAccount(db, tenant.workspace.id, { provider: 'tiktok', handle: '@brand_tt' });
});

/** A video row that fits TikTok's limits (the probe's facts; no bytes are needed to validate a post). */
const video = () =>
  insertMedia(db, {
    workspaceId: tenant.workspace.id,
    sha256: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    type: 'video/mp4',
    width: 1080,
    height: 1920,
    size: 2_000_000,
    altText: '',
    createdBy: 'test',
    durationMs: 10_000,
    videoCodec: 'h264',
    audioCodec: 'aac',
    frameRate: 30,
    rotation: 0,
    container: 'mp4',
    coverSha256: 'c'.repeat(64),
  });
const create = (payload: unknown, key = randomUUID()) =>
  createPost(apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key, body: payload }), noParams);
const storedPosts = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from posts`))[0]!.n;
const storedOptions = async (postId: string) =>
  new Map(
    (
      await db
        .select({ accountId: deliveries.accountId, options: deliveries.options })
        .from(deliveries)
        .where(eq(deliveries.postId, postId))
    ).map((d) => [d.accountId, d.options]),
  );

describe('POST /api/v1/posts — options', () => {
  it('TikTok’s options: stored on its delivery, returned with the post, the other account without any', async () => {
    const clip = await video();
    const [x] = tenant.accounts;
    const options = { privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false };
    const res = await create({
      text: `options ${randomUUID()}`,
      accountIds: [tiktok.id, x!.id],
      mediaIds: [clip.id],
      options: { [tiktok.id]: options },
    });
    // X takes no video (the refusal is about the media, not X's lack of options).
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors)).toEqual(['mediaIds']);
    const ok = await create({
      text: `options ${randomUUID()}`,
      accountIds: [tiktok.id],
      mediaIds: [clip.id],
      options: { [tiktok.id]: options },
    });
    expect(ok.status).toBe(201);
    const body = await ok.json();
    expect(body.options).toEqual({ [tiktok.id]: options });
    expect(await storedOptions(body.id)).toEqual(new Map([[tiktok.id, options]]));
    const read = await (
      await getPost(apiRequest(`/api/v1/posts/${body.id}`, { token: tenant.token }), idParams(body.id))
    ).json();
    expect(read.options).toEqual({ [tiktok.id]: options });
  });

  it('a network without options: none stored, `options` empty; an inbox post needs no privacy level', async () => {
    const [x] = tenant.accounts;
    const plain = await create({ text: `plain ${randomUUID()}`, accountIds: [x!.id] });
    expect(plain.status).toBe(201);
    const plainBody = await plain.json();
    expect(plainBody.options).toEqual({});
    expect(await storedOptions(plainBody.id)).toEqual(new Map([[x!.id, null]]));
    const inbox = await create({
      text: `inbox ${randomUUID()}`,
      accountIds: [tiktok.id],
      mediaIds: [(await video()).id],
      options: { [tiktok.id]: { post_mode: 'inbox' } },
    });
    expect(inbox.status).toBe(201);
    expect((await inbox.json()).options).toEqual({ [tiktok.id]: { post_mode: 'inbox' } });
  });

  it('refuses with 422 naming the account and field, storing nothing', async () => {
    const [x] = tenant.accounts;
    const clip = await video();
    const before = await storedPosts();
    const tiktokPost = { accountIds: [tiktok.id], mediaIds: [clip.id] };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [tiktokPost, `options.${tiktok.id}.privacy_level`, /TikTok needs a privacy level.*\(@brand_tt, TikTok\)/],
      [
        { ...tiktokPost, options: { [tiktok.id]: {} } },
        `options.${tiktok.id}.privacy_level`,
        /TikTok needs a privacy level/,
      ],
      [
        { ...tiktokPost, options: { [tiktok.id]: { privacy_level: 'EVERYONE_ON_EARTH' } } },
        `options.${tiktok.id}.privacy_level`,
        /One of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY/,
      ],
      [
        { ...tiktokPost, options: { [tiktok.id]: { privacy_level: 'SELF_ONLY', disable_comment: 'yes' } } },
        `options.${tiktok.id}.disable_comment`,
        /boolean/,
      ],
      [
        { ...tiktokPost, options: { [tiktok.id]: { privacy_level: 'SELF_ONLY', allow_everything: true } } },
        `options.${tiktok.id}`,
        /allow_everything/,
      ],
      [
        { ...tiktokPost, options: { [tiktok.id]: { post_mode: 'inbox', privacy_level: 'SELF_ONLY' } } },
        `options.${tiktok.id}.privacy_level`,
        /inbox takes no settings/,
      ],
      [
        { accountIds: [x!.id], options: { [x!.id]: { privacy_level: 'SELF_ONLY' } } },
        `options.${x!.id}`,
        /takes no options/,
      ],
      [
        { accountIds: [x!.id], options: { [tiktok.id]: { privacy_level: 'SELF_ONLY' } } },
        `options.${tiktok.id}`,
        /Not one of accountIds/,
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await create({ text: `refused ${randomUUID()}`, ...payload });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const { errors } = await res.json();
      expect(errors[field]?.join(' '), JSON.stringify(errors)).toMatch(message);
    }
    expect(await storedPosts()).toBe(before);
  });

  it('a refusal keeps nothing, not even its key: the corrected body under the same key is created', async () => {
    const key = randomUUID();
    const clip = await video();
    const text = `retried ${randomUUID()}`;
    const refused = await create({ text, accountIds: [tiktok.id], mediaIds: [clip.id] }, key);
    expect(refused.status).toBe(422);
    const fixed = await create(
      { text, accountIds: [tiktok.id], mediaIds: [clip.id], options: { [tiktok.id]: { privacy_level: 'SELF_ONLY' } } },
      key,
    );
    expect(fixed.status).toBe(201);
    const replay = await create(
      { text, accountIds: [tiktok.id], mediaIds: [clip.id], options: { [tiktok.id]: { privacy_level: 'SELF_ONLY' } } },
      key,
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The options are part of the request: other options under the same key are another request.
    const other = await create(
      {
        text,
        accountIds: [tiktok.id],
        mediaIds: [clip.id],
        options: { [tiktok.id]: { privacy_level: 'PUBLIC_TO_EVERYONE' } },
      },
      key,
    );
    expect(other.status).toBe(422);
  });

  it('PATCH: adding a TikTok account needs its options; given, they are stored; a new privacy level replaces the old', async () => {
    const clip = await video();
    const second = await makeAccount(db, tenant.workspace.id, { provider: 'tiktok', handle: '@second_tt' });
    const created = await create({
      text: `edit ${randomUUID()}`,
      accountIds: [tiktok.id],
      mediaIds: [clip.id],
      options: { [tiktok.id]: { privacy_level: 'SELF_ONLY' } },
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const patch = (body: unknown) =>
      patchPost(
        apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token: tenant.token, key: randomUUID(), body }),
        idParams(id),
      );
    const refused = await patch({ accountIds: [tiktok.id, second.id] });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors[`options.${second.id}.privacy_level`].join(' ')).toMatch(/@second_tt/);
    expect([...(await storedOptions(id)).keys()]).toEqual([tiktok.id]);

    const added = await patch({
      accountIds: [tiktok.id, second.id],
      options: { [second.id]: { privacy_level: 'FOLLOWER_OF_CREATOR' } },
    });
    expect(added.status).toBe(200);
    expect((await added.json()).options).toEqual({
      [tiktok.id]: { privacy_level: 'SELF_ONLY' },
      [second.id]: { privacy_level: 'FOLLOWER_OF_CREATOR' },
    });
    const changed = await patch({ options: { [tiktok.id]: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' } } });
    expect(changed.status).toBe(200);
    expect(await storedOptions(id)).toEqual(
      new Map([
        [tiktok.id, { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' }],
        [second.id, { privacy_level: 'FOLLOWER_OF_CREATOR' }],
      ]),
    );
    const bad = await patch({ options: { [tiktok.id]: { privacy_level: 'NOBODY' } } });
    expect(bad.status).toBe(422);
    expect((await storedOptions(id)).get(tiktok.id)).toEqual({ privacy_level: 'MUTUAL_FOLLOW_FRIENDS' });
  });

  it('the database keeps options small: a large JSON is refused by deliveries_options_ck', async () => {
    const [x] = tenant.accounts;
    const res = await create({ text: `small ${randomUUID()}`, accountIds: [x!.id] });
    const { id } = await res.json();
    await expect(
      db
        .update(deliveries)
        .set({ options: { blob: 'x'.repeat(3000) } })
        .where(eq(deliveries.postId, id)),
    ).rejects.toMatchObject({ cause: { constraint_name: 'deliveries_options_ck' } });
  });
});

describe('POST /api/v1/posts — YouTube’s options (title, privacy, tags, a scheduled release)', () => {
  let youtube: Awaited<ReturnType<typeof makeAccount>>;
  beforeAll(async () => {
    youtube = await makeAccount(db, tenant.workspace.id, { provider: 'youtube', handle: '@brand_yt' });
  });
  const post = async (options: Record<string, unknown> | undefined) =>
    create({
      text: `youtube ${randomUUID()}`,
      accountIds: [youtube.id],
      mediaIds: [(await video()).id],
      ...(options ? { options: { [youtube.id]: options } } : {}),
    });

  it('none needed; given, they are stored as given and returned with the post', async () => {
    expect((await post(undefined)).status).toBe(201);
    const options = {
      title: 'Launch day, in one minute',
      privacy_status: 'unlisted',
      tags: ['launch', 'behind the scenes'],
    };
    const res = await post(options);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.options).toEqual({ [youtube.id]: options });
    expect(await storedOptions(body.id)).toEqual(new Map([[youtube.id, options]]));
  });

  it('refused with 422 naming the field, storing nothing: a long title, < in it, a comma in a tag, a past or public release, an unknown key', async () => {
    const before = await storedPosts();
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x'.repeat(101) }, 'title'],
      [{ title: 'a <b> title' }, 'title'],
      [{ tags: ['one, two'] }, 'tags'],
      [{ tags: Array.from({ length: 60 }, (_, i) => `tag number ${i}`) }, 'tags'],
      [{ publish_at: new Date(Date.now() - 60_000).toISOString() }, 'publish_at'],
      [{ publish_at: soon, privacy_status: 'public' }, 'privacy_status'],
      [{ privacy_status: 'friends' }, 'privacy_status'],
      [{ category: 'music' }, ''],
    ];
    for (const [options, field] of cases) {
      const res = await post(options);
      expect(res.status, JSON.stringify(options)).toBe(422);
      const errors = Object.keys((await res.json()).errors);
      expect(
        errors.some((e) => e.startsWith(`options.${youtube.id}${field ? `.${field}` : ''}`)),
        errors.join(),
      ).toBe(true);
    }
    expect(await storedPosts()).toBe(before);
  });
});
