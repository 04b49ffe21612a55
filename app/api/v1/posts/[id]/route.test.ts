import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { deliveries, idempotencyKeys } from '@/db/schema';
import { POST as createPost } from '../route';
import { PATCH as editPost } from './route';

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
});

const later = () => new Date(Date.now() + 3_600_000).toISOString();
async function scheduledPost(): Promise<string> {
  const res = await createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token: tenant.token,
      key: randomUUID(),
      body: { text: 'Draft', accountIds: tenant.accounts.map((a) => a.id), scheduledAt: later() },
    }),
    noParams,
  );
  expect(res.status).toBe(201);
  return (await res.json()).id;
}
const patch = (id: string, key: string, body: unknown) =>
  editPost(apiRequest(`/api/v1/posts/${id}`, { method: 'PATCH', token: tenant.token, key, body }), idParams(id));
const storedKeys = (key: string) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.operation, 'posts.update')));

describe('PATCH /api/v1/posts/:id — the edit use case through its HTTP adapter', () => {
  it('an edit answers 200 and its retry replays the same bytes, marked replayed', async () => {
    const id = await scheduledPost();
    const key = randomUUID();
    const first = await patch(id, key, { text: 'Edited once' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    expect(JSON.parse(firstBody).text).toBe('Edited once');
    const retry = await patch(id, key, { text: 'Edited once' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(firstBody);
  });

  it('a refused edit (already sent) is a stored 409 problem: the retry gets the same answer, marked replayed', async () => {
    const id = await scheduledPost();
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.postId, id));
    await db.update(deliveries).set({ status: 'sent' }).where(eq(deliveries.postId, id));
    const key = randomUUID();
    const first = await patch(id, key, { text: 'Too late' });
    expect(first.status).toBe(409);
    expect(first.headers.get('content-type')).toBe('application/problem+json');
    const problem = await first.json();
    expect(problem).toMatchObject({ status: 409, title: 'Not editable', reason: 'already_sent' });
    expect(problem.deliveries).toHaveLength(2);
    const retry = await patch(id, key, { text: 'Too late' });
    expect(retry.status).toBe(409);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(problem);
    expect(await storedKeys(key)).toHaveLength(1);
  });

  it('typed rejections (invalid targets, missing post) are 422/404 problems, store nothing, and leave the key usable', async () => {
    const id = await scheduledPost();
    const key = randomUUID();
    const invalid = await patch(id, key, { accountIds: [other.accounts[0]!.id] });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).errors.accountIds).toEqual([
      'One or more accounts do not exist in this workspace or are disconnected',
    ]);
    expect(await storedKeys(key)).toHaveLength(0);
    const corrected = await patch(id, key, { accountIds: [tenant.accounts[0]!.id] });
    expect(corrected.status).toBe(200);
    expect(
      (await corrected.json()).deliveries.filter((d: { status: string }) => d.status === 'scheduled'),
    ).toHaveLength(1);

    const missing = randomUUID();
    const notFound = await patch(missing, randomUUID(), { text: 'x' });
    expect(notFound.status).toBe(404);
    expect((await patch('not-a-uuid', randomUUID(), { text: 'x' })).status).toBe(404);
  });

  it('create and edit share one target validation: the same message for text too long on a platform', async () => {
    const id = await scheduledPost();
    const long = 'x'.repeat(600);
    const edit = await patch(id, randomUUID(), { text: long });
    const create = await createPost(
      apiRequest('/api/v1/posts', {
        method: 'POST',
        token: tenant.token,
        key: randomUUID(),
        body: { text: long, accountIds: tenant.accounts.map((a) => a.id) },
      }),
      noParams,
    );
    expect(edit.status).toBe(422);
    expect(create.status).toBe(422);
    const editErrors = (await edit.json()).errors.text as string[];
    expect(editErrors.length).toBeGreaterThan(0);
    expect(editErrors[0]).toMatch(/^600\/\d+ characters: too long for /);
    expect((await create.json()).errors.text).toEqual(editErrors);
  });
});
