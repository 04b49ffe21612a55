import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/db/queries/api-keys';
import { apiKeys, posts, type ApiKeyScope } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { scopesSchema } from '@/lib/api/scopes';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { GET as listAccounts } from './accounts/route';
import { POST as cancelPost } from './posts/[id]/cancel/route';
import { GET as getPost, PATCH as editPost } from './posts/[id]/route';
import { GET as listPosts, POST as createPost } from './posts/route';

// Small, so the limit is reached within a test; read once per process by lib/env.ts.
const LIMIT = 8;
process.env.API_RATE_LIMIT_PER_MINUTE = String(LIMIT);

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  tenant = await fixture.tenant();
});

async function keyWith(scopes?: ApiKeyScope[]) {
  const key = generateApiKey();
  const row = await createApiKey(db, {
    workspaceId: tenant.workspace.id,
    name: 'scoped',
    prefix: key.prefix,
    hash: key.hash,
    scopes,
  });
  return { token: key.token, id: row.id, scopes: row.scopes };
}

const postBody = () => ({ text: `scoped ${randomUUID()}`, accountIds: tenant.accounts.map((a) => a.id) });
const create = (token: string, body: unknown = postBody(), key = randomUUID()) =>
  createPost(apiRequest('/api/v1/posts', { method: 'POST', token, key, body }), noParams);
const postCount = async () =>
  (await db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, tenant.workspace.id)))[0]!.n;

describe('API key scopes', () => {
  it('a new key gets all three scopes by default', async () => {
    expect((await keyWith()).scopes).toEqual(['posts:read', 'posts:write', 'accounts:read']);
  });

  it('the database refuses an unknown scope', async () => {
    const key = generateApiKey();
    await expect(
      createApiKey(db, {
        workspaceId: tenant.workspace.id,
        name: 'x',
        prefix: key.prefix,
        hash: key.hash,
        scopes: ['admin' as ApiKeyScope],
      }),
    ).rejects.toThrow();
  });

  it('a read-only key reads but cannot write: 403 problem+json naming the missing scope, nothing stored', async () => {
    const reader = await keyWith(['posts:read']);
    expect((await listPosts(apiRequest('/api/v1/posts', { token: reader.token }), noParams)).status).toBe(200);
    const before = await postCount();
    const refused = await create(reader.token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const problem = await refused.json();
    expect(problem).toMatchObject({ status: 403, missingScope: 'posts:write' });
    expect(problem.detail).toContain('posts:write');
    expect(await postCount()).toBe(before);
    const id = randomUUID();
    expect(
      (
        await cancelPost(
          apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: reader.token }),
          idParams(id),
        )
      ).status,
    ).toBe(403);
    const patch = await editPost(
      apiRequest(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        token: reader.token,
        key: randomUUID(),
        body: { text: 'x' },
      }),
      idParams(id),
    );
    expect(patch.status).toBe(403);
    const accounts = await listAccounts(apiRequest('/api/v1/accounts', { token: reader.token }), noParams);
    expect(accounts.status).toBe(403);
    expect((await accounts.json()).missingScope).toBe('accounts:read');
  });

  it('a write-only key creates but cannot read posts or accounts', async () => {
    const writer = await keyWith(['posts:write']);
    const created = await create(writer.token);
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const read = await getPost(apiRequest(`/api/v1/posts/${id}`, { token: writer.token }), idParams(id));
    expect(read.status).toBe(403);
    expect((await read.json()).missingScope).toBe('posts:read');
  });

  it('an accounts-only key lists accounts and nothing else', async () => {
    const accountsOnly = await keyWith(['accounts:read']);
    expect((await listAccounts(apiRequest('/api/v1/accounts', { token: accountsOnly.token }), noParams)).status).toBe(
      200,
    );
    expect((await listPosts(apiRequest('/api/v1/posts', { token: accountsOnly.token }), noParams)).status).toBe(403);
  });
});

describe('per-key rate limit (atomic counter in Postgres)', () => {
  it(`${LIMIT * 3} parallel requests on one key: exactly ${LIMIT} pass, the rest get 429 with Retry-After and RateLimit-*`, async () => {
    const { token } = await keyWith();
    const other = await keyWith();
    const responses = await Promise.all(
      Array.from({ length: LIMIT * 3 }, () => listPosts(apiRequest('/api/v1/posts?limit=1', { token }), noParams)),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    // A minute boundary during the burst may open a new window: then a few more pass, never fewer.
    expect(ok.length).toBeGreaterThanOrEqual(LIMIT);
    expect(ok.length).toBeLessThanOrEqual(2 * LIMIT);
    expect(ok.length + limited.length).toBe(LIMIT * 3);
    const tooMany = limited[0]!;
    expect(tooMany.headers.get('content-type')).toBe('application/problem+json');
    const retryAfter = Number(tooMany.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(tooMany.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(tooMany.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(tooMany.headers.get('ratelimit-reset'))).toBe(retryAfter);
    // Each passing request was counted once: within one window they saw every remaining count exactly once.
    const remaining = ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    if (ok.length === LIMIT) expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    // Another key of the same workspace has its own budget.
    expect((await listPosts(apiRequest('/api/v1/posts?limit=1', { token: other.token }), noParams)).status).toBe(200);
  });

  it('a write refused by the limit stores nothing', async () => {
    const { token } = await keyWith();
    await Promise.all(
      Array.from({ length: LIMIT }, () => listPosts(apiRequest('/api/v1/posts?limit=1', { token }), noParams)),
    );
    const before = await postCount();
    const res = await create(token);
    if (res.status !== 429) return expect(res.status).toBe(201); // the minute turned over mid-test: a fresh window
    expect(await postCount()).toBe(before);
  });

  it('records the last use, at most once a minute', async () => {
    const { token, id } = await keyWith();
    const lastUsed = async () =>
      (await db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id)))[0]!.at;
    expect(await lastUsed()).toBeNull();
    await listPosts(apiRequest('/api/v1/posts?limit=1', { token }), noParams);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(60_000);
    await listPosts(apiRequest('/api/v1/posts?limit=1', { token }), noParams);
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());
    // An hour-old last use is refreshed by the next request.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(apiKeys.id, id));
    await listPosts(apiRequest('/api/v1/posts?limit=1', { token }), noParams);
    expect(Date.now() - (await lastUsed())!.getTime()).toBeLessThan(60_000);
  });
});

describe('API hygiene: bad query parameters are 400 problem+json, never 500', () => {
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  it.each([
    ['not base64 JSON', 'cursor=%%%'],
    ['JSON of another shape', `cursor=${cursorOf({ a: 1 })}`],
    ['a number', `cursor=${cursorOf(42)}`],
    ['a year Postgres cannot store', `cursor=${cursorOf(['-271821-04-20T00:00:00.000Z', randomUUID()])}`],
    ['a far-future expanded year', `cursor=${cursorOf(['+275760-09-13T00:00:00.000Z', randomUUID()])}`],
    ['no uuid', `cursor=${cursorOf([new Date().toISOString(), 'x'])}`],
    ['an empty cursor', 'cursor='],
    ['limit 0', 'limit=0'],
    ['limit 101', 'limit=101'],
    ['limit -1', 'limit=-1'],
    ['limit 2.5', 'limit=2.5'],
    ['limit abc', 'limit=abc'],
    ['limit 1e9', 'limit=1e9'],
  ])('%s → 400', async (_name, query) => {
    const { token } = await keyWith();
    const res = await listPosts(apiRequest(`/api/v1/posts?${query}`, { token }), noParams);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).errors).toBeDefined();
  });
});

describe('bad input: a NUL character in post text', () => {
  it('POST answers 422 with a field error on text and stores nothing (also for replies and DMs)', async () => {
    const { token } = await keyWith();
    const before = await postCount();
    for (const body of [
      { ...postBody(), text: 'hello\u0000world' },
      { ...postBody(), kind: 'reply', inReplyTo: '1\u00002' },
      { ...postBody(), kind: 'dm', recipient: '@a\u0000b' },
    ]) {
      const res = await create(token, body);
      expect(res.status).toBe(422);
      const problem = await res.json();
      expect(JSON.stringify(problem.errors)).toContain('NUL');
    }
    const textError = await (await create(token, { ...postBody(), text: '\u0000' })).json();
    expect(textError.errors.text).toEqual(expect.arrayContaining([expect.stringContaining('NUL')]));
    expect(await postCount()).toBe(before);
  });

  it('PATCH answers 422 and leaves the text unchanged', async () => {
    const { token } = await keyWith();
    const { id, text } = await (await create(token)).json();
    const res = await editPost(
      apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token, key: randomUUID(), body: { text: 'a\u0000b' } }),
      idParams(id),
    );
    expect(res.status).toBe(422);
    expect((await db.select({ text: posts.text }).from(posts).where(eq(posts.id, id)))[0]!.text).toBe(text);
  });
});

describe('scope lists (Settings form and `npm run apikey -- --scopes`)', () => {
  it.each([
    ['posts:read,accounts:read', ['posts:read', 'accounts:read']],
    [' posts:write , posts:write ', ['posts:write']],
    [
      ['posts:read', 'posts:write'],
      ['posts:read', 'posts:write'],
    ],
  ])('%j → %j', (input, expected) => {
    expect(scopesSchema.parse(input)).toEqual(expected);
  });

  it.each([['admin'], ['posts:read,admin'], [''], [[]]])('%j is refused', (input) => {
    expect(scopesSchema.safeParse(input).success).toBe(false);
  });
});
