import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMedia } from '@/db/queries/media';
import { postTemplates, snippets } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, noParams } from '@/testing/api-fixture';
import { holdLock, untilBlocked } from '@/testing/race';
import { POST as createSnippet } from '../snippets/route';
import { PATCH as patchTemplate } from './[id]/route';
import { POST as createTemplate } from './route';

// Snippets and templates through the API honour Idempotency-Key as POST /api/v1/posts does
// (docs/api.md#idempotency-key-rules, DESIGN I3): the same key and body → the stored answer, `Idempotent-Replayed:
// true`, one row; the same key and another body → 422, nothing written; the first still running → 409 with
// Retry-After. A retried create is never a 422 "name taken". Templates can be changed (PATCH), keyed too.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let other: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  [tenant, other] = [await fixture.tenant(), await fixture.tenant()];
});

const send = (path: string, method: string, key: string | null, body: unknown, token = tenant.token) =>
  apiRequest(path, { method, token, key: key ?? undefined, body });
const postSnippet = (body: unknown, key: string | null) =>
  createSnippet(send('/api/v1/snippets', 'POST', key, body), noParams);
const postTemplate = (body: unknown, key: string | null) =>
  createTemplate(send('/api/v1/templates', 'POST', key, body), noParams);
const patch = (id: string, body: unknown, key: string | null, token = tenant.token) =>
  patchTemplate(send(`/api/v1/templates/${id}`, 'PATCH', key, body, token), idParams(id));
const snippetsNamed = async (name: string) =>
  db
    .select()
    .from(snippets)
    .where(eq(snippets.workspaceId, tenant.workspace.id))
    .then((rows) => rows.filter((r) => r.name === name));
const template = async (id: string) => (await db.select().from(postTemplates).where(eq(postTemplates.id, id)))[0]!;

describe('POST /api/v1/snippets and /api/v1/templates — once per Idempotency-Key', () => {
  it('I3 — the same key and body again: the first 201 replayed, marked, byte for byte; one row, never "name taken"', async () => {
    const key = randomUUID();
    const body = { name: `sig-${randomUUID().slice(0, 6)}`, kind: 'signature', text: '— The team' };
    const first = await postSnippet(body, key);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const created = await first.text();
    const retry = await postSnippet(body, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await retry.text()).toBe(created);
    expect(retry.headers.get('location')).toBe(`/api/v1/snippets/${JSON.parse(created).id}`);
    expect(await snippetsNamed(body.name)).toHaveLength(1);
    // Another intent with the same name is still refused by the name's constraint.
    const another = await postSnippet(body, randomUUID());
    expect(another.status).toBe(422);
    expect((await another.json()).errors.name).toEqual(['A snippet with this name exists']);
  });

  it('the same key with another body → 422, nothing written; no key, or a malformed one → 400, nothing written', async () => {
    const key = randomUUID();
    const name = `tags-${randomUUID().slice(0, 6)}`;
    expect((await postSnippet({ name, kind: 'hashtags', text: '#a' }, key)).status).toBe(201);
    const reused = await postSnippet({ name: `${name}-b`, kind: 'hashtags', text: '#b' }, key);
    expect(reused.status).toBe(422);
    expect((await reused.json()).title).toBe('Idempotency-Key reused');
    expect(await snippetsNamed(`${name}-b`)).toEqual([]);
    for (const bad of [null, '', 'é'.repeat(3), 'k'.repeat(256)]) {
      const refused = await postSnippet({ name: `${name}-c`, kind: 'hashtags', text: '#c' }, bad);
      expect(refused.status, String(bad)).toBe(400);
    }
    expect(await snippetsNamed(`${name}-c`)).toEqual([]);
  });

  it('I3 — while the first request still runs, the same key is a 409 with Retry-After, then the stored answer', async () => {
    const key = randomUUID();
    const body = { name: `held-${randomUUID().slice(0, 6)}`, kind: 'other', text: 'held' };
    // The first request takes its key, then waits on the table (its insert) until the lock is released.
    const release = await holdLock(db, sql`lock table snippets in exclusive mode`);
    const first = postSnippet(body, key);
    await untilBlocked(db, 'insert into "snippets"');
    const meanwhile = await postSnippet(body, key);
    expect(meanwhile.status).toBe(409);
    expect(Number(meanwhile.headers.get('retry-after'))).toBeGreaterThan(0);
    await release();
    expect((await first).status).toBe(201);
    const after = await postSnippet(body, key);
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await snippetsNamed(body.name)).toHaveLength(1);
  });

  it('I3 — twenty requests with one key at once (real connections): one template, every answer its 201 or a 409', async () => {
    const key = randomUUID();
    const body = {
      name: `race-${randomUUID().slice(0, 6)}`,
      text: 'New: {{product}}',
      accountIds: [tenant.accounts[0]!.id],
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => postTemplate(body, key)));
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const bodies = new Set(await Promise.all(answers.filter((a) => a.status === 201).map((a) => a.text())));
    expect(bodies.size).toBe(1);
    const rows = await db.select().from(postTemplates).where(eq(postTemplates.name, body.name));
    expect(rows).toHaveLength(1);
    expect(JSON.parse([...bodies][0]!).id).toBe(rows[0]!.id);
  });
});

describe('PATCH /api/v1/templates/{id} — edit a template, once per Idempotency-Key', () => {
  let id: string;
  let image: string;
  beforeAll(async () => {
    const created = await postTemplate(
      {
        name: `edit-${randomUUID().slice(0, 6)}`,
        text: 'Old: {{product}}',
        firstComment: 'Shop {{product}}',
        accountIds: [tenant.accounts[0]!.id],
        timeOfDay: '09:30',
      },
      randomUUID(),
    );
    id = (await created.json()).id;
    const media = await insertMedia(db, {
      workspaceId: tenant.workspace.id,
      sha256: 'a'.repeat(64),
      type: 'image/jpeg',
      width: 10,
      height: 10,
      size: 100,
      altText: 'A lamp',
      createdBy: 'test',
    });
    image = media.id;
  });

  it('the fields given replace the template’s (null removes the comment and the time); a retry is the stored 200', async () => {
    const key = randomUUID();
    const body = {
      text: 'New: {{product}} at {{price}}',
      firstComment: null,
      timeOfDay: null,
      accountIds: [tenant.accounts[1]!.id],
      mediaIds: [image],
    };
    const changed = await patch(id, body, key);
    expect(changed.status).toBe(200);
    const answer = await changed.text();
    expect(JSON.parse(answer)).toMatchObject({
      id,
      text: 'New: {{product}} at {{price}}',
      firstComment: null,
      timeOfDay: null,
      accountIds: [tenant.accounts[1]!.id],
      mediaIds: [image],
    });
    expect(await template(id)).toMatchObject({
      text: body.text,
      firstComment: null,
      timeOfDay: null,
      mediaIds: [image],
    });
    // Changed again meanwhile: a retry of the first still answers what it did, and changes nothing.
    expect((await patch(id, { text: 'Newer: {{product}}' }, randomUUID())).status).toBe(200);
    const retry = await patch(id, body, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await retry.text()).toBe(answer);
    expect((await template(id)).text).toBe('Newer: {{product}}');
    const reused = await patch(id, { text: 'Other: {{product}}' }, key);
    expect(reused.status).toBe(422);
    expect((await template(id)).text).toBe('Newer: {{product}}');
  });

  it('refused, nothing changed: no field (422), a name another template has (422), another workspace’s account or image (422), another workspace’s template (404)', async () => {
    const taken = `taken-${randomUUID().slice(0, 6)}`;
    expect((await postTemplate({ name: taken, text: 'x' }, randomUUID())).status).toBe(201);
    const before = await template(id);
    const refusals: [unknown, string][] = [
      [{}, '_'],
      [{ name: taken }, 'name'],
      [{ accountIds: [other.accounts[0]!.id] }, 'accountIds'],
      [{ mediaIds: [randomUUID()] }, 'mediaIds'],
    ];
    for (const [body, field] of refusals) {
      const refused = await patch(id, body, randomUUID());
      expect(refused.status, JSON.stringify(body)).toBe(422);
      const errors = (await refused.json()).errors as Record<string, string[]>;
      expect(Object.keys(errors), JSON.stringify(body)).toContain(field);
    }
    const foreign = await patch(id, { text: 'theirs' }, randomUUID(), other.token);
    expect(foreign.status).toBe(404);
    expect(await template(id)).toEqual(before);
  });
});
