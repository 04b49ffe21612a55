import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveries, postVariants } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { PATCH as patchPost } from './[id]/route';
import { POST as createPost } from './route';

// A post's first comment through the public API (docs/api.md#first-comments): `firstComment`, and an account's own
// in `variants[accountId].firstComment`. It is the post's reply part (deliveries.part 1) on each account whose
// network takes one; LinkedIn publishes the post alone. Refusals are 422s naming the field, storing nothing.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let mastodon: Awaited<ReturnType<typeof makeAccount>>;
let linkedin: Awaited<ReturnType<typeof makeAccount>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  mastodon = await makeAccount(db, tenant.workspace.id, { provider: 'mastodon', handle: '@brand@social.test' });
  linkedin = await makeAccount(db, tenant.workspace.id, { provider: 'linkedin', handle: 'Brand' });
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const create = (payload: unknown) =>
  createPost(
    apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key: randomUUID(), body: payload }),
    noParams,
  );
const patch = (id: string, payload: unknown) =>
  patchPost(
    apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token: tenant.token, key: randomUUID(), body: payload }),
    idParams(id),
  );
const partsOf = async (postId: string) =>
  (
    await db
      .select({ accountId: deliveries.accountId, part: deliveries.part, status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.postId, postId))
      .orderBy(asc(deliveries.accountId), asc(deliveries.part))
  ).map((d) => `${d.accountId}:${d.part}:${d.status}`);
const storedPosts = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from posts`))[0]!.n;

describe('POST /api/v1/posts — firstComment', () => {
  it('a part 1 delivery on each account whose network takes a comment; LinkedIn publishes the post alone', async () => {
    const x = tenant.accounts[0]!;
    const res = await create({
      text: `post ${randomUUID()}`,
      firstComment: 'Link in the first comment: https://example.com',
      accountIds: [x.id, mastodon.id, linkedin.id],
      scheduledAt: inAnHour(),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.firstComment).toBe('Link in the first comment: https://example.com');
    expect(body.deliveries.map((d: { accountId: string; part: number }) => `${d.accountId}:${d.part}`).sort()).toEqual(
      [`${x.id}:0`, `${x.id}:1`, `${mastodon.id}:0`, `${mastodon.id}:1`, `${linkedin.id}:0`].sort(),
    );
    expect(await partsOf(body.id)).toEqual(
      [x.id, mastodon.id, linkedin.id]
        .flatMap((id) => (id === linkedin.id ? [`${id}:0:scheduled`] : [`${id}:0:scheduled`, `${id}:1:scheduled`]))
        .sort(),
    );
  });

  it("an account's own first comment replaces the post's there, with or without its own text", async () => {
    const x = tenant.accounts[0]!;
    const res = await create({
      text: `own ${randomUUID()}`,
      firstComment: 'shared comment',
      accountIds: [x.id, mastodon.id],
      variants: { [mastodon.id]: { firstComment: 'for the fediverse' } },
      scheduledAt: inAnHour(),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.variants).toEqual({ [mastodon.id]: { firstComment: 'for the fediverse' } });
    const texts = await db.execute<{ account_id: string; part: number; text: string }>(sql`
      select d.account_id, d.part, coalesce(
        (select case when d.part = 0 then v.text else v.first_comment end from post_variants v
          where v.post_id = d.post_id and v.account_id = d.account_id),
        case when d.part = 0 then p.text else p.first_comment end) as text
      from deliveries d join posts p on p.id = d.post_id where d.post_id = ${body.id} order by d.part`);
    const comments = Object.fromEntries([...texts].filter((t) => t.part === 1).map((t) => [t.account_id, t.text]));
    expect(comments).toEqual({ [x.id]: 'shared comment', [mastodon.id]: 'for the fediverse' });
  });

  it('refused with a 422 naming the field, nothing stored: not a post, own comment on LinkedIn, too long', async () => {
    const x = tenant.accounts[0]!;
    const before = await storedPosts();
    const reply = await create({ kind: 'reply', inReplyTo: '1', text: 'r', firstComment: 'c', accountIds: [x.id] });
    expect(reply.status).toBe(422);
    expect((await reply.json()).errors.firstComment).toEqual(['Only posts take a first comment']);
    const onLinkedin = await create({
      text: 'p',
      accountIds: [linkedin.id],
      variants: { [linkedin.id]: { firstComment: 'c' } },
    });
    expect(onLinkedin.status).toBe(422);
    expect((await onLinkedin.json()).errors[`variants.${linkedin.id}.firstComment`]).toEqual([
      'LinkedIn takes no first comment (Brand)',
    ]);
    const long = await create({ text: 'p', accountIds: [x.id], firstComment: 'w'.repeat(281) });
    expect(long.status).toBe(422);
    expect((await long.json()).errors.firstComment[0]).toMatch(/^281\/280 characters/);
    expect(await storedPosts()).toBe(before);
  });
});

describe('PATCH /api/v1/posts/{id} — firstComment', () => {
  it('adds, changes and removes the first comment while the post is scheduled: its part 1 comes and goes', async () => {
    const x = tenant.accounts[0]!;
    const created = await (
      await create({ text: `edit ${randomUUID()}`, accountIds: [x.id, linkedin.id], scheduledAt: inAnHour() })
    ).json();
    expect(await partsOf(created.id)).toHaveLength(2);
    const added = await patch(created.id, { firstComment: 'now with a comment' });
    expect(added.status).toBe(200);
    expect((await added.json()).firstComment).toBe('now with a comment');
    expect(await partsOf(created.id)).toEqual(
      [`${x.id}:0:scheduled`, `${x.id}:1:scheduled`, `${linkedin.id}:0:scheduled`].sort(),
    );
    const removed = await patch(created.id, { firstComment: null });
    expect(removed.status).toBe(200);
    expect((await removed.json()).firstComment).toBeNull();
    expect(await partsOf(created.id)).toEqual([`${x.id}:0:scheduled`, `${linkedin.id}:0:scheduled`].sort());
    // An account added later gets the comment too, if its network takes one.
    await patch(created.id, { firstComment: 'again' });
    const widened = await patch(created.id, { accountIds: [x.id, linkedin.id, mastodon.id] });
    expect(widened.status).toBe(200);
    expect(await partsOf(created.id)).toEqual(
      [
        `${x.id}:0:scheduled`,
        `${x.id}:1:scheduled`,
        `${linkedin.id}:0:scheduled`,
        `${mastodon.id}:0:scheduled`,
        `${mastodon.id}:1:scheduled`,
      ].sort(),
    );
    const stored = await db.select().from(postVariants).where(eq(postVariants.postId, created.id));
    expect(stored).toEqual([]);
  });
});
