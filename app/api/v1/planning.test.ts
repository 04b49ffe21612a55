import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/db/queries/api-keys';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { GET as getSchedule, PUT as putSchedule } from './accounts/[id]/schedule/route';
import { PATCH as editPost } from './posts/[id]/route';
import { POST as createPost } from './posts/route';

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;
let writer: string; // a key that may change schedules

beforeAll(async () => {
  tenant = await fixture.tenant();
  other = await fixture.tenant();
  const key = generateApiKey();
  await createApiKey(db, {
    workspaceId: tenant.workspace.id,
    name: 'slots',
    prefix: key.prefix,
    hash: key.hash,
    scopes: ['posts:read', 'posts:write', 'accounts:read', 'accounts:write'],
  });
  writer = key.token;
});

const schedulePath = (id: string) => `/api/v1/accounts/${id}/schedule`;
const put = (id: string, body: unknown, token = writer) =>
  putSchedule(apiRequest(schedulePath(id), { method: 'PUT', token, body }), idParams(id));
const get = (id: string, token = tenant.token) => getSchedule(apiRequest(schedulePath(id), { token }), idParams(id));
const create = (body: Record<string, unknown>, key = randomUUID()) =>
  createPost(apiRequest('/api/v1/posts', { method: 'POST', token: tenant.token, key, body }), noParams);
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((weekday) => ({ weekday, time: '09:30' }));

describe('GET/PUT /api/v1/accounts/{id}/schedule', () => {
  it('no schedule yet: no slots, in the workspace zone; PUT replaces it and answers the next free slots', async () => {
    const id = tenant.accounts[0]!.id;
    expect(await (await get(id)).json()).toEqual({ accountId: id, timeZone: 'UTC', slots: [], nextFreeSlots: [] });
    const saved = await put(id, { timeZone: 'Europe/Berlin', slots: EVERY_DAY });
    expect(saved.status).toBe(200);
    const body = await saved.json();
    expect(body).toMatchObject({ accountId: id, timeZone: 'Europe/Berlin', slots: EVERY_DAY.sort() });
    expect(body.nextFreeSlots).toHaveLength(5);
    // 09:30 in Berlin is 07:30 or 08:30 UTC, by season.
    for (const at of body.nextFreeSlots) expect(at).toMatch(/T0[78]:30:00\.000Z$/);
    expect(await (await get(id)).json()).toEqual(body);
  });

  it('scopes: reading needs accounts:read, changing needs accounts:write (403 naming it)', async () => {
    const id = tenant.accounts[1]!.id;
    const refused = await put(id, { timeZone: 'UTC', slots: [] }, tenant.token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ missingScope: 'accounts:write' });
  });

  it('bad input is a 422 with field errors; another workspace’s account or a bad id is a 404', async () => {
    const id = tenant.accounts[1]!.id;
    const invalid = await put(id, { timeZone: 'Nowhere/Land', slots: [{ weekday: 'mon', time: '9am' }] });
    expect(invalid.status).toBe(422);
    expect(Object.keys((await invalid.json()).errors).sort()).toEqual(['slots.0.time', 'timeZone']);
    expect((await put(other.accounts[0]!.id, { timeZone: 'UTC', slots: [] })).status).toBe(404);
    expect((await get(other.accounts[0]!.id)).status).toBe(404);
    expect((await get('not-a-uuid')).status).toBe(404);
  });
});

describe('POST /api/v1/posts: variants, drafts, slot "next"', () => {
  it('slot "next" takes the account’s next free slot, as the schedule announced it', async () => {
    const id = tenant.accounts[0]!.id;
    const announced = (await (await get(id)).json()).nextFreeSlots as string[];
    const first = await create({ text: `queued ${randomUUID()}`, accountIds: [id], slot: 'next' });
    expect(first.status).toBe(201);
    expect((await first.json()).scheduledAt).toBe(announced[0]);
    const second = await create({ text: `queued ${randomUUID()}`, accountIds: [id], slot: 'next' });
    expect((await second.json()).scheduledAt).toBe(announced[1]);
    expect((await (await get(id)).json()).nextFreeSlots[0]).toBe(announced[2]);
    const both = await create({ text: 'x', accountIds: [id], slot: 'next', scheduledAt: announced[3] });
    expect(both.status).toBe(422);
    expect((await both.json()).errors).toEqual({ slot: ['Give either scheduledAt or slot, not both'] });
  });

  it('a variant too long for its network is a 422 on variants.<accountId>.text; one for a non-target on variants.<accountId>', async () => {
    const [a, b] = [tenant.accounts[0]!, tenant.accounts[1]!];
    const tooLong = await create({
      text: 'short',
      accountIds: [a.id, b.id],
      variants: { [a.id]: { text: 'x'.repeat(281) } },
    });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toMatchObject({
      errors: { [`variants.${a.id}.text`]: ['281/280 characters: too long for @t'] },
    });
    const stranger = other.accounts[0]!.id;
    const notTarget = await create({ text: 'short', accountIds: [a.id], variants: { [stranger]: { text: 'y' } } });
    expect(notTarget.status).toBe(422);
    expect((await notTarget.json()).errors).toEqual({ [`variants.${stranger}`]: ['Not one of accountIds'] });
    const ok = await create({ text: 'short', accountIds: [a.id, b.id], variants: { [b.id]: { text: 'for b' } } });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ variants: { [b.id]: { text: 'for b' } } });
  });

  it('status "draft" needs no time; a keyed PATCH with status "scheduled" schedules it, once', async () => {
    const id = tenant.accounts[1]!.id;
    const draft = await create({ text: `draft ${randomUUID()}`, accountIds: [id], status: 'draft' });
    expect(draft.status).toBe(201);
    const body = await draft.json();
    expect(body).toMatchObject({ status: 'draft', deliveries: [{ status: 'draft' }] });
    const key = randomUUID();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const schedule = () =>
      editPost(
        apiRequest(`/api/v1/posts/${body.id}`, {
          method: 'PATCH',
          token: tenant.token,
          key,
          body: { status: 'scheduled', scheduledAt: at },
        }),
        idParams(body.id),
      );
    const first = await schedule();
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const replay = await schedule();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});
