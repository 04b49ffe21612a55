import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createApiFixture, noParams } from '@/testing/api-fixture';
import { GET as listPosts, POST as createPost } from './route';

const fixture = await createApiFixture();
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;

type Page = { data: { id: string; scheduledAt: string; deliveries: unknown[] }[]; nextCursor: string | null };

const list = async (query: string, token = tenant.token) => {
  const response = await listPosts(apiRequest(`/api/v1/posts?${query}`, { token }), noParams);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
};

async function schedule(t: typeof tenant, scheduledAt: string) {
  const response = await createPost(
    apiRequest('/api/v1/posts', {
      method: 'POST',
      token: t.token,
      key: randomUUID(),
      body: { text: `at ${scheduledAt} ${randomUUID()}`, accountIds: [t.accounts[0]!.id], scheduledAt },
    }),
    noParams,
  );
  expect(response.status).toBe(201);
  const id = ((await response.json()) as { id: string }).id;
  if (t === tenant) created.push(id);
  return id;
}
const created: string[] = [];

// Days ahead of now (a create refuses past times), at fixed hours.
const day = (offset: number, time = '09:00:00') =>
  `${new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)}T${time}.000Z`;

beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
});

describe('GET /api/v1/posts?from=&to= — the posts scheduled in a range', () => {
  it("lists [from, to) in time order with deliveries; I6 — another workspace's posts in that range never appear", async () => {
    const later = await schedule(tenant, day(12, '15:00:00'));
    const earlier = await schedule(tenant, day(12, '08:00:00'));
    await schedule(tenant, day(14)); // after the range
    const theirs = await schedule(other, day(12, '10:00:00'));
    const { status, body } = await list(`from=${day(12, '00:00:00')}&to=${day(13, '00:00:00')}`);
    expect(status).toBe(200);
    const page = body as Page;
    expect(page.data.map((p) => p.id)).toEqual([earlier, later]);
    expect(page.data[0]!.deliveries).toHaveLength(1);
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((p) => p.id)).not.toContain(theirs);
  });

  it('pages through a range with limit and nextCursor; a newest-first cursor is refused there (400)', async () => {
    const ids = [];
    for (const hour of ['01', '02', '03']) ids.push(await schedule(tenant, day(20, `${hour}:00:00`)));
    const range = `from=${day(20, '00:00:00')}&to=${day(21, '00:00:00')}`;
    const first = (await list(`${range}&limit=2`)).body as Page;
    expect(first.data.map((p) => p.id)).toEqual(ids.slice(0, 2));
    const second = (await list(`${range}&limit=2&cursor=${first.nextCursor}`)).body as Page;
    expect(second.data.map((p) => p.id)).toEqual(ids.slice(2));
    expect(second.nextCursor).toBeNull();

    const unranged = (await list('limit=1')).body as Page;
    expect(unranged.nextCursor).toBeTruthy();
    expect((await list(`${range}&cursor=${unranged.nextCursor}`)).status).toBe(400);
    expect((await list(`cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('without from/to the list is unchanged: newest first, every post', async () => {
    const { status, body } = await list('limit=100');
    expect(status).toBe(200);
    // Newest created first, whatever their scheduled times (the range's order is not this one).
    expect((body as Page).data.map((p) => p.id)).toEqual([...created].reverse());
  });

  it.each([
    ['only from', `from=${encodeURIComponent('2026-07-01T00:00:00Z')}`, 'to'],
    ['only to', `to=${encodeURIComponent('2026-07-01T00:00:00Z')}`, 'from'],
    ['a bound that is not a time', 'from=soon&to=2026-07-01T00:00:00Z', 'from'],
    ['a time without a zone', 'from=2026-07-01T00:00:00&to=2026-07-02T00:00:00Z', 'from'],
    ['to before from', 'from=2026-07-02T00:00:00Z&to=2026-07-01T00:00:00Z', 'to'],
    ['a range over 100 days', 'from=2026-01-01T00:00:00Z&to=2026-04-11T00:00:01Z', 'to'],
  ])('%s → 422 problem+json naming the parameter, nothing read', async (_what, query, field) => {
    const { status, type, body } = await list(query);
    expect(status).toBe(422);
    expect(type).toBe('application/problem+json');
    expect(body).toMatchObject({ status: 422, errors: { [field]: [expect.any(String)] } });
  });
});
