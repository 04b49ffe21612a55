import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordOwnMessages } from '@/db/queries/inbox/items';
import { inboxAnswers, posts } from '@/db/schema';
import { apiRequest, createApiFixture, idParams, makeScopedApiKey, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { storeInboxItem } from '@/testing/inbox';
import { POST as reply } from './[id]/reply/route';
import { GET as list } from './route';

// GET /api/v1/inbox and POST /api/v1/inbox/{id}/reply (docs/api.md#inbox): scopes, filters, tenancy (I6), and one
// answer per intent with real parallel requests.

const fixture = await createApiFixture();
const { db } = fixture;
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
let reader: string;
let writer: string;
beforeAll(async () => {
  tenant = await fixture.tenant();
  reader = await makeScopedApiKey(db, tenant.workspace.id, ['inbox:read']);
  writer = await makeScopedApiKey(db, tenant.workspace.id, ['inbox:read', 'inbox:write']);
});

const item = (overrides: Parameters<typeof storeInboxItem>[1]['item'] = {}, accountId = tenant.accounts[0]!.id) =>
  storeInboxItem(db, { workspaceId: tenant.workspace.id, accountId, item: overrides });
const get = (query: string, token = reader) => list(apiRequest(`/api/v1/inbox${query}`, { token }), noParams);
/** `key` null: no Idempotency-Key at all. */
const answer = (id: string, body: unknown, key: string | null = randomUUID(), token = writer) =>
  reply(apiRequest(`/api/v1/inbox/${id}/reply`, { method: 'POST', token, key: key ?? undefined, body }), idParams(id));

describe('GET /api/v1/inbox', () => {
  it('lists unanswered items newest first with counts; filters; pages with a cursor; 403 without inbox:read', async () => {
    const account = await makeAccount(db, tenant.workspace.id, { handle: '@filters' });
    const old = await item(
      { text: 'oldest', receivedAt: new Date(Date.now() - 3_000), kind: 'dm', conversationId: 'c1' },
      account.id,
    );
    const mid = await item({ text: 'middle', receivedAt: new Date(Date.now() - 2_000) }, account.id);
    const fresh = await item({ text: 'newest', receivedAt: new Date(Date.now() - 1_000) }, account.id);
    const first = await get(`?account=${account.id}&limit=2`);
    expect(first.status).toBe(200);
    const page = (await first.json()) as {
      items: { id: string }[];
      nextCursor: string;
      counts: Record<string, number>;
    };
    expect(page.items.map((i) => i.id)).toEqual([fresh.id, mid.id]);
    expect(page.counts).toEqual({ unanswered: 3, answered: 0, done: 0 });
    const second = (await (
      await get(`?account=${account.id}&limit=2&cursor=${page.nextCursor}`)
    ).json()) as typeof page;
    expect(second.items.map((i) => i.id)).toEqual([old.id]);
    expect(second.nextCursor).toBeNull();
    const dms = (await (await get(`?account=${account.id}&kind=dm`)).json()) as typeof page;
    expect(dms.items.map((i) => i.id)).toEqual([old.id]);

    expect((await get('?limit=500')).status).toBe(400);
    expect((await get('?cursor=nonsense')).status).toBe(400);
    const noScope = await makeScopedApiKey(db, tenant.workspace.id, ['posts:read']);
    const refused = await get('', noScope);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ missingScope: 'inbox:read' });
  });

  it('I6 — another workspace’s items are never listed, nor answerable (404)', async () => {
    const other = await fixture.tenant();
    const theirs = await storeInboxItem(db, { workspaceId: other.workspace.id, accountId: other.accounts[0]!.id });
    const page = (await (await get('?status=all&limit=100')).json()) as { items: { id: string }[] };
    expect(page.items.map((i) => i.id)).not.toContain(theirs.id);
    const response = await answer(theirs.id, { text: 'Hi' });
    expect(response.status).toBe(404);
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, theirs.id))).toHaveLength(0);
  });
});

describe('bad input is a problem, never a 500', () => {
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const isProblem = async (response: Response, statuses: number[], what = '') => {
    expect(statuses, `${what} ${await response.clone().text()}`).toContain(response.status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  };

  it('GET /api/v1/inbox: bad cursors and filters are 400', async () => {
    for (const query of [
      '?cursor=nonsense',
      `?cursor=${cursorOf(['0000-01-01T00:00:00Z', randomUUID()])}`,
      `?cursor=${cursorOf(['275760-09-13T00:00:00Z', randomUUID()])}`,
      `?cursor=${cursorOf(['2026-13-45T99:00:00Z', randomUUID()])}`,
      `?cursor=${cursorOf(['2026-01-01T00:00:00Z', 'not-a-uuid'])}`,
      `?cursor=${cursorOf({ receivedAt: 1 })}`,
      `?cursor=${cursorOf(null)}`,
      `?cursor=${'a'.repeat(500)}`,
      '?cursor=%00',
      '?status=nope',
      '?account=nope',
      '?account=%00',
      '?network=myspace',
      '?kind=post',
      '?assignedTo=me',
      '?limit=abc',
      '?limit=0',
      '?limit=1.5',
      '?limit=1e400',
    ])
      await isProblem(await get(query), [400], query);
  });

  it('POST /api/v1/inbox/{id}/reply: malformed bodies are 400 or 422; no key is 400; nothing written', async () => {
    const target = await item();
    const raw = (rawBody: string, key: string | null = randomUUID()) =>
      reply(
        apiRequest(`/api/v1/inbox/${target.id}/reply`, {
          method: 'POST',
          token: writer,
          key: key ?? undefined,
          rawBody,
        }),
        idParams(target.id),
      );
    for (const body of ['{', '', 'null', '[]', '"text"', '42', '{"text": 5}', '{"text": "x", "after": "abc"}'])
      await isProblem(await raw(body), [400, 422]);
    for (const body of [
      { text: 'x', after: -1 },
      { text: 'x', after: 1.5 },
      { text: 'x\u0000y' },
      { text: 'x'.repeat(5001) },
    ])
      await isProblem(await answer(target.id, body), [400, 422]);
    await isProblem(await answer(target.id, { text: 'no key' }, null), [400]);
    await isProblem(await answer(target.id, { text: 'empty key' }, ''), [400]);
    await isProblem(await answer(target.id, { text: 'long key' }, 'k'.repeat(256)), [400]);
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, target.id))).toHaveLength(0);
  });
});

describe('POST /api/v1/inbox/{id}/reply', () => {
  it('201 with the answer and its reply post; the same key replays it; a second intent gets 409 naming who answered', async () => {
    const target = await item();
    const key = randomUUID();
    const created = await answer(target.id, { text: 'We are on it!' }, key);
    expect(created.status).toBe(201);
    const body = (await created.json()) as {
      answer: { number: number; by: string; postId: string };
      post: { kind: string };
    };
    expect(body).toMatchObject({
      answer: { number: 1, by: 'API key “inbox:read inbox:write”' },
      post: { kind: 'reply' },
    });
    const replayed = await answer(target.id, { text: 'We are on it!' }, key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(body);

    const second = await answer(target.id, { text: 'Me too' });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      title: 'Already answered',
      answeredBy: 'API key “inbox:read inbox:write”',
      answer: { number: 1, text: 'We are on it!' },
      answers: 1,
    });
    const another = await answer(target.id, { text: 'One more thing', after: 1 });
    expect(another.status).toBe(201);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, target.platformId))).toHaveLength(2);
  });

  it('twenty integrations answering at once with their own keys: one 201, nineteen 409; fifty retries of one key: one answer', async () => {
    const target = await item();
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => answer(target.id, { text: `racing ${i}` })));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(19);

    const again = await item();
    const key = randomUUID();
    const retries = await Promise.all(Array.from({ length: 50 }, () => answer(again.id, { text: 'retried' }, key)));
    expect(retries.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, again.id))).toHaveLength(1);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, again.platformId))).toHaveLength(1);
  });

  it('409 for an item the account answered on the platform itself (seen by the inbox job), naming that answer; "after": 1 sends another', async () => {
    const target = await item();
    await recordOwnMessages(db, {
      accountId: tenant.accounts[0]!.id,
      messages: [
        {
          platformId: '1790000000000000001',
          inReplyTo: target.platformId,
          conversationId: null,
          createdAt: new Date(),
          text: 'Sent you a DM <3',
        },
      ],
    });
    // The list counts it among the item's answers: the `after` an integration would send for another one.
    const listed = (await (await get('?status=answered&limit=100')).json()) as { items: { id: string }[] };
    expect(listed.items.find((i) => i.id === target.id)).toMatchObject({ answerSource: 'platform', answers: 1 });
    const refused = await answer(target.id, { text: 'Hello' });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await refused.json()) as { detail: string; answeredBy: string; answers: number; answer: unknown };
    expect(problem).toMatchObject({
      answeredBy: 'platform',
      answers: 1,
      answer: { platformId: '1790000000000000001', text: 'Sent you a DM <3' },
    });
    expect(problem.detail).toContain('on X itself (another app)');
    expect(problem.detail).toContain('“Sent you a DM <3”');
    expect(problem.detail).toContain('"after": 1');
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, target.id))).toHaveLength(0);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, target.platformId))).toHaveLength(0);
    const anyway = await answer(target.id, { text: 'Hello anyway', after: 1 });
    expect(anyway.status).toBe(201);
    expect(await anyway.json()).toMatchObject({ answer: { number: 2, text: 'Hello anyway' } });
  });

  it('400 without a key, 422 for an empty text or an `after` beyond the answers, 403 without inbox:write; nothing written', async () => {
    const target = await item();
    expect((await answer(target.id, { text: 'no key' }, null)).status).toBe(400);
    const empty = await answer(target.id, { text: '   ' });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ errors: { text: ['Write an answer'] } });
    expect((await answer(target.id, { text: 'x', extra: 1 })).status).toBe(422);
    const ahead = await answer(target.id, { text: 'ahead', after: 3 });
    expect(ahead.status).toBe(422);
    expect((await answer(target.id, { text: 'read only' }, randomUUID(), reader)).status).toBe(403);
    expect((await answer('not-a-uuid', { text: 'x' })).status).toBe(404);
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, target.id))).toHaveLength(0);
  });
});
