import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { deliveries, idempotencyKeys, posts } from '@/db/schema';
import { GET as getPost } from './[id]/route';
import { POST as cancelPost } from './[id]/cancel/route';
import { GET as listPosts, POST as createPost } from './route';

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  text: 'Launch day!',
  accountIds: tenant.accounts.map((a) => a.id),
  ...overrides,
});
const create = (key: string | undefined, payload: unknown = body(), token = tenant.token) =>
  createPost(apiRequest('/api/v1/posts', { method: 'POST', token, key, body: payload }), noParams);

async function postsWithKey(key: string, workspaceId = tenant.workspace.id) {
  const rows = await db.select({ id: posts.id }).from(posts).where(eq(posts.idempotencyKey, key));
  const all = await db.select({ id: posts.id, ws: posts.workspaceId }).from(posts).where(eq(posts.idempotencyKey, key));
  return { mine: all.filter((r) => r.ws === workspaceId).length, total: rows.length };
}

describe('POST /api/v1/posts — I3: one intent, one row', () => {
  it('creates a post with one delivery per account and answers 201', async () => {
    const key = randomUUID();
    const res = await create(key);
    expect(res.status).toBe(201);
    const json = await res.json();
    expect(json).toMatchObject({ status: 'scheduled', kind: 'post', text: 'Launch day!' });
    expect(json.deliveries).toHaveLength(2);
    expect(res.headers.get('location')).toBe(`/api/v1/posts/${json.id}`);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('I3 — a replay returns the stored status and body byte for byte, marked Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await create(key);
    const firstText = await first.text();
    const replay = await create(key);
    expect(replay.status).toBe(201);
    expect(await replay.text()).toBe(firstText);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await postsWithKey(key)).total).toBe(1);
  });

  it('I3 — a retried "post now" without scheduledAt matches its original although the clock moved', async () => {
    const key = randomUUID();
    const first = await create(key, body({ scheduledAt: undefined }));
    await new Promise((r) => setTimeout(r, 20));
    const again = await create(key, body({ scheduledAt: undefined }));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
  });

  it('I3 — 100 parallel requests with one key create exactly one post and one set of deliveries', async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 100 }, () => create(key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = responses.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(created).toHaveLength(1);
    for (const conflict of responses.filter((r) => r.status === 409)) {
      expect(Number(conflict.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(conflict.headers.get('content-type')).toBe('application/problem+json');
    }
    const original = await created[0]!.text();
    // Every 409's retry gets the replay of the one post.
    const retry = await create(key);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(original);
    const [{ n }] = (await db.select({ n: count() }).from(posts).where(eq(posts.idempotencyKey, key))) as [
      { n: number },
    ];
    expect(n).toBe(1);
    const id = JSON.parse(original).id as string;
    const [{ d }] = (await db.select({ d: count() }).from(deliveries).where(eq(deliveries.postId, id))) as [
      { d: number },
    ];
    expect(d).toBe(2);
  });

  it.each([
    ['text', { text: 'Different text' }],
    ['accounts', { accountIds: [randomUUID()] }],
    ['time', { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }],
    ['kind', { kind: 'reply', inReplyTo: '123' }],
  ])('I3 — same key with changed %s → 422 and nothing written, the original untouched', async (_what, change) => {
    const key = randomUUID();
    const first = await create(key);
    const original = await first.text();
    const res = await create(key, body(change));
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).title).toBe('Idempotency-Key reused');
    expect((await postsWithKey(key)).total).toBe(1);
    const replay = await create(key);
    expect(await replay.text()).toBe(original);
  });

  it('I6 — the same key in another workspace is an independent post', async () => {
    const key = randomUUID();
    expect((await create(key)).status).toBe(201);
    const theirs = await create(key, { text: 'Theirs', accountIds: other.accounts.map((a) => a.id) }, other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await postsWithKey(key)).total).toBe(2);
  });

  it('an invalid body is not stored: the same key then works with a valid body, creating exactly one post', async () => {
    const key = randomUUID();
    const bad = await create(key, { text: '', accountIds: [] });
    expect(bad.status).toBe(422);
    const problem = await bad.json();
    expect(problem.errors.text).toBeDefined();
    expect(problem.errors.accountIds).toBeDefined();
    const stored = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toHaveLength(0);
    expect((await create(key)).status).toBe(201);
    expect((await postsWithKey(key)).total).toBe(1);
  });

  it("database-checked errors (another workspace's account, text too long, past time) are 422 and not stored", async () => {
    const key = randomUUID();
    for (const payload of [
      body({ accountIds: [other.accounts[0]!.id] }),
      body({ text: 'x'.repeat(281) }),
      body({ scheduledAt: '2020-01-01T00:00:00Z' }),
    ]) {
      const res = await create(key, payload);
      expect(res.status).toBe(422);
      expect((await res.json()).errors).toBeDefined();
    }
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    expect((await postsWithKey(key)).total).toBe(0);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['control character', 'abc\u0007def'],
  ])('a %s Idempotency-Key → 400 problem+json', async (_what, key) => {
    const request = apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, body: body() });
    if (key !== undefined) {
      // Request headers refuse control characters, so that case is built on a Headers-like object.
      Object.defineProperty(request, 'headers', {
        value: new Map([
          ['authorization', `Bearer ${tenant.token}`],
          ['idempotency-key', key],
        ]),
      });
    }
    const res = await createPost(request, noParams);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('a key whose record expired and was pruned starts a new request: a new post, then replays of that one', async () => {
    const key = randomUUID();
    const first = await (await create(key)).json();
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key)); // what pruning does after retention
    const again = await create(key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const second = await again.json();
    expect(second.id).not.toBe(first.id);
    const replay = await create(key);
    expect((await replay.json()).id).toBe(second.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a scheduledAt beyond the two-year horizon is a 422 field error', async () => {
    for (const scheduledAt of [
      '9999-12-31T23:59:59-23:59',
      new Date(Date.now() + 3 * 365 * 86_400_000).toISOString(),
    ]) {
      const res = await create(randomUUID(), body({ scheduledAt }));
      expect(res.status).toBe(422);
      expect((await res.json()).errors.scheduledAt).toBeDefined();
    }
  });

  it('a 255-character key is accepted', async () => {
    expect((await create('k'.repeat(254) + randomUUID().slice(0, 1))).status).toBe(201);
  });

  it('a body that is not JSON → 400; a missing or wrong API key → 401', async () => {
    const notJson = await createPost(
      apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key: randomUUID(), rawBody: '{nope' }),
      noParams,
    );
    expect(notJson.status).toBe(400);
    expect(
      (await createPost(apiRequest('/api/v1/posts', { method: 'POST', key: randomUUID(), body: body() }), noParams))
        .status,
    ).toBe(401);
    expect(
      (
        await createPost(
          apiRequest('/api/v1/posts', { method: 'POST', token: 'sm_live_wrong', key: randomUUID(), body: body() }),
          noParams,
        )
      ).status,
    ).toBe(401);
  });

  it('an in-flight key whose lease ran out is taken over by the next request, once', async () => {
    const key = randomUUID();
    await db.insert(idempotencyKeys).values({
      workspaceId: tenant.workspace.id,
      operation: 'posts.create',
      key,
      fingerprint: 'x',
      state: 'in_flight',
      lockToken: randomUUID(),
      lockedUntil: new Date(Date.now() - 1000),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    // A different request on an abandoned key is still a mismatch, never a takeover.
    expect((await create(key)).status).toBe(422);
    await db
      .update(idempotencyKeys)
      .set({
        fingerprint: (await import('@/lib/idempotency/fingerprint')).fingerprint(
          (await import('@/lib/posts/schemas')).fingerprintInput(
            (await import('@/lib/posts/schemas')).createPostRequestSchema.parse(body()),
          ),
        ),
      })
      .where(eq(idempotencyKeys.key, key));
    const responses = await Promise.all(Array.from({ length: 10 }, () => create(key)));
    expect(responses.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
    expect((await postsWithKey(key)).total).toBe(1);
  });
});

describe("GET and cancel — scoped to the key's workspace (I6)", () => {
  it("reads a post, lists with cursor pagination, and hides other workspaces' posts as 404", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await create(randomUUID(), body({ text: `page ${i}` }))).json()).id);
    const one = await getPost(apiRequest(`/api/v1/posts/${ids[0]}`, { token: tenant.token }), idParams(ids[0]!));
    expect(one.status).toBe(200);
    expect((await one.json()).id).toBe(ids[0]);
    expect(
      (await getPost(apiRequest(`/api/v1/posts/${ids[0]}`, { token: other.token }), idParams(ids[0]!))).status,
    ).toBe(404);
    expect(
      (await getPost(apiRequest('/api/v1/posts/not-a-uuid', { token: tenant.token }), idParams('not-a-uuid'))).status,
    ).toBe(404);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await listPosts(
        apiRequest(`/api/v1/posts?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: tenant.token }),
        noParams,
      );
      const page = await res.json();
      seen.push(...page.data.map((p: { id: string }) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    const theirs = await (await listPosts(apiRequest('/api/v1/posts', { token: other.token }), noParams)).json();
    expect(theirs.data.some((p: { id: string }) => ids.includes(p.id))).toBe(false);
    expect((await listPosts(apiRequest('/api/v1/posts?status=bogus', { token: tenant.token }), noParams)).status).toBe(
      400,
    );
    expect((await listPosts(apiRequest('/api/v1/posts?cursor=%%%', { token: tenant.token }), noParams)).status).toBe(
      400,
    );
  });

  it('cancel is idempotent, only touches scheduled deliveries, and is refused for another workspace', async () => {
    const id = (await (await create(randomUUID())).json()).id as string;
    expect(
      (await cancelPost(apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: other.token }), idParams(id)))
        .status,
    ).toBe(404);
    const first = await cancelPost(
      apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: tenant.token }),
      idParams(id),
    );
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody.status).toBe('canceled');
    expect(firstBody.canceledDeliveryIds).toHaveLength(2);
    const again = await cancelPost(
      apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: tenant.token }),
      idParams(id),
    );
    expect(again.status).toBe(200);
    expect((await again.json()).canceledDeliveryIds).toHaveLength(0);

    const sentId = (await (await create(randomUUID())).json()).id as string;
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.postId, sentId));
    await db.update(deliveries).set({ status: 'sent' }).where(eq(deliveries.postId, sentId));
    const refused = await cancelPost(
      apiRequest(`/api/v1/posts/${sentId}/cancel`, { method: 'POST', token: tenant.token }),
      idParams(sentId),
    );
    expect(refused.status).toBe(409);
    expect((await refused.json()).deliveries.every((d: { status: string }) => d.status === 'sent')).toBe(true);
  });
});
