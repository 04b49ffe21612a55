import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimDueDeliveries } from '@/db/queries/deliveries';
import { deliveries, postParts, posts } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { POST as cancelPost } from './[id]/cancel/route';
import { GET as getPost, PATCH as patchPost } from './[id]/route';
import { POST as createPost } from './route';

// kind "thread" through the public API: what is accepted (and refused, storing nothing), what a thread looks
// like (parts, each with its delivery per account), and edits and cancels that keep a thread whole.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;

beforeAll(async () => {
  tenant = await fixture.tenant();
});

const parts = (n: number, label = randomUUID().slice(0, 8)) =>
  Array.from({ length: n }, (_, k) => ({ text: `${label} part ${k + 1}` }));
const thread = (overrides: Record<string, unknown> = {}) => ({
  kind: 'thread',
  parts: parts(3),
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
const cancel = (id: string) =>
  cancelPost(apiRequest(`/api/v1/posts/${id}/cancel`, { method: 'POST', token: tenant.token }), idParams(id));
const storedCount = async () =>
  Number(([...(await db.execute<{ n: number }>(sql`select count(*)::int as n from posts`))][0] as { n: number }).n);

async function expectRefused(payload: unknown, field: string, message: RegExp) {
  const before = await storedCount();
  const res = await create(payload);
  expect(res.status).toBe(422);
  const problem = await res.json();
  expect(problem.errors?.[field]?.join(' ')).toMatch(message);
  expect(await storedCount()).toBe(before); // nothing stored
}

describe('POST /api/v1/posts — kind "thread"', () => {
  it('creates a thread: its parts in order, one delivery per part and account', async () => {
    const payload = thread();
    const res = await create(payload);
    expect(res.status).toBe(201);
    const json = await res.json();
    expect(json).toMatchObject({ kind: 'thread', status: 'scheduled', text: payload.parts[0]!.text });
    expect(json.deliveries).toHaveLength(6);
    expect(json.parts.map((p: { position: number; text: string }) => [p.position, p.text])).toEqual(
      payload.parts.map((p, i) => [i, p.text]),
    );
    for (const [i, part] of json.parts.entries()) {
      expect(part.deliveries.map((d: { accountId: string }) => d.accountId).sort()).toEqual(
        tenant.accounts.map((a) => a.id).sort(),
      );
      expect(
        part.deliveries.every((d: { part: number; status: string }) => d.part === i && d.status === 'scheduled'),
      ).toBe(true);
    }
    const stored = await db.select().from(postParts).where(eq(postParts.postId, json.id)).orderBy(postParts.position);
    expect(stored.map((p) => p.text)).toEqual(payload.parts.map((p) => p.text));
  });

  it('I3 — a replay returns the same thread; the same key with other parts is refused, nothing written', async () => {
    const key = randomUUID();
    const payload = thread();
    const first = await create(payload, key);
    const replay = await create(payload, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(await first.text());
    const changed = await create({ ...payload, parts: [...payload.parts.slice(0, 2), { text: 'another third' }] }, key);
    expect(changed.status).toBe(422);
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(posts)
      .where(eq(posts.idempotencyKey, key));
    expect(row!.n).toBe(1);
  });

  it('refuses a thread of 1 or 26 parts, text beside parts, parts on a post, an empty or too long part', async () => {
    await expectRefused(thread({ parts: parts(1) }), 'parts', /at least 2 parts/);
    await expectRefused(thread({ parts: parts(26) }), 'parts', /at most 25 parts/);
    await expectRefused(thread({ text: 'also a text' }), 'text', /in its parts/);
    await expectRefused(thread({ parts: undefined }), 'parts', /needs its parts/);
    await expectRefused({ ...thread(), kind: 'post', text: 'a post' }, 'parts', /Only threads/);
    await expectRefused(thread({ parts: [{ text: 'one' }, { text: '   ' }] }), 'parts.1.text', /required/);
    await expectRefused(
      thread({ parts: [{ text: 'one' }, { text: 'two' }, { text: 'x'.repeat(281) }] }),
      'parts.2.text',
      /281\/280 characters/,
    );
  });

  it('refuses a part image that does not exist in the workspace, naming the part (images: thread-media.test.ts)', async () => {
    await expectRefused(
      thread({ parts: [{ text: 'one', mediaIds: [randomUUID()] }, { text: 'two' }] }),
      'parts.0.mediaIds',
      /do not exist in this workspace/,
    );
  });

  it('refuses a thread of three to LinkedIn (a post and its first comment at most) with a field error, storing nothing', async () => {
    const linkedin = await makeAccount(db, tenant.workspace.id, 'linkedin');
    await expectRefused(
      thread({ accountIds: [tenant.accounts[0]!.id, linkedin.id] }),
      'parts',
      /^LinkedIn takes a post and 1 comment \(.+\): at most 2 parts$/,
    );
  });
});

describe('GET /api/v1/posts/:id — a thread', () => {
  it('returns each part with its own delivery status and link per account', async () => {
    const created = await (await create(thread())).json();
    const [first] = created.parts[0].deliveries;
    // Part 1 went out on the first account.
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.id, first.id));
    await db
      .update(deliveries)
      .set({ status: 'sent', externalId: '1001', externalUrl: 'https://x.test/1001' })
      .where(eq(deliveries.id, first.id));
    const json = await get(created.id);
    expect(json.status).toBe('partial');
    expect(json.parts[0].deliveries.find((d: { id: string }) => d.id === first.id)).toMatchObject({
      status: 'sent',
      externalId: '1001',
      url: 'https://x.test/1001',
      part: 0,
    });
    expect(
      json.parts[1].deliveries.every((d: { status: string; url: null }) => d.status === 'scheduled' && !d.url),
    ).toBe(true);
  });
});

describe('PATCH and cancel — a thread changes only as a whole, and only before it starts', () => {
  it('an edit replaces all parts (3 → 2 → 4); text alone is refused for a thread, parts for a post', async () => {
    const created = await (await create(thread())).json();
    const shorter = await patch(created.id, { parts: parts(2, 'shorter') });
    expect(shorter.status).toBe(200);
    const two = await shorter.json();
    expect(two.parts.map((p: { text: string }) => p.text)).toEqual(['shorter part 1', 'shorter part 2']);
    expect(two.text).toBe('shorter part 1');
    expect(two.deliveries).toHaveLength(4);
    const longer = await (await patch(created.id, { parts: parts(4, 'longer') })).json();
    expect(longer.parts.map((p: { deliveries: unknown[] }) => p.deliveries.length)).toEqual([2, 2, 2, 2]);
    const rows = await db.select().from(deliveries).where(eq(deliveries.postId, created.id));
    expect(rows.map((d) => d.part).sort()).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);

    const text = await patch(created.id, { text: 'just text' });
    expect(text.status).toBe(422);
    expect((await text.json()).errors.text[0]).toMatch(/in its parts/);
    const post = await (await create({ text: 'a post', accountIds: [tenant.accounts[0]!.id] })).json();
    expect((await patch(post.id, { parts: parts(2) })).status).toBe(422);
  });

  it('once a part is claimed, the thread can no longer be edited', async () => {
    const created = await (await create(thread({ accountIds: [tenant.accounts[0]!.id] }))).json();
    await db.execute(
      sql`update deliveries set due_at = now() + interval '1 hour' where status = 'scheduled' and post_id <> ${created.id}`,
    );
    const claimed = await claimDueDeliveries(db, { workerId: 'test', limit: 10, leaseMs: 30_000 });
    expect(claimed.map((c) => c.deliveryId)).toEqual([created.parts[0].deliveries[0].id]); // part 1 only
    const res = await patch(created.id, { parts: parts(2) });
    expect(res.status).toBe(409);
    expect((await res.json()).reason).toBe('already_publishing');
  });

  it('cancel takes a whole thread per account, and never the rest of one that has started', async () => {
    const [a, b] = tenant.accounts;
    const created = await (await create(thread())).json();
    const aParts = created.parts.map(
      (p: { deliveries: { id: string; accountId: string }[] }) => p.deliveries.find((d) => d.accountId === a!.id)!.id,
    );
    // The thread has started on account a: its part 1 is sent.
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.id, aParts[0]));
    await db.update(deliveries).set({ status: 'sent', externalId: '1' }).where(eq(deliveries.id, aParts[0]));
    const res = await cancel(created.id);
    expect(res.status).toBe(200);
    const rows = await db
      .select({ accountId: deliveries.accountId, part: deliveries.part, status: deliveries.status })
      .from(deliveries)
      .where(and(eq(deliveries.postId, created.id)))
      .orderBy(deliveries.part);
    expect(rows.filter((r) => r.accountId === b!.id).map((r) => r.status)).toEqual([
      'canceled',
      'canceled',
      'canceled',
    ]);
    expect(rows.filter((r) => r.accountId === a!.id).map((r) => r.status)).toEqual(['sent', 'scheduled', 'scheduled']);
    // A repeat finds nothing left to cancel and changes nothing.
    const repeat = await cancel(created.id);
    expect((await repeat.json()).canceledDeliveryIds).toEqual([]);
  });

  it('cancel of a thread that has started on its only account is refused: nothing changes', async () => {
    const created = await (await create(thread({ accountIds: [tenant.accounts[0]!.id] }))).json();
    const [first] = created.parts[0].deliveries;
    await db.update(deliveries).set({ status: 'publishing' }).where(eq(deliveries.id, first.id));
    const res = await cancel(created.id);
    expect(res.status).toBe(409);
    const rows = await db
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.postId, created.id));
    expect(rows.map((r) => r.status).sort()).toEqual(['publishing', 'scheduled', 'scheduled']);
  });
});
