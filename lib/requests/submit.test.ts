import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { revokeRequestLink } from '@/db/queries/requests';
import { auditLog, deliveries, media, postMedia, postRequests, posts } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { holdLock, settled } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import {
  checkRequestLink,
  createRequestLink,
  REQUEST_ADDRESS_RATE_PER_MINUTE,
  REQUEST_LINK_RATE_PER_MINUTE,
  revokeRequestLinkAudited,
} from './links';
import { submitPostRequest, type RequestFormInput } from './submit';

const { db } = await createTestDatabase({ max: 20 });

/** A workspace with two connected accounts and a request link. */
async function linkedWorkspace() {
  const workspace = await makeWorkspace(db);
  const accounts = [await makeAccount(db, workspace.id, 'x'), await makeAccount(db, workspace.id, 'mastodon')];
  const admin = await makeUser(db);
  const link = await createRequestLink(db, { workspaceId: workspace.id, userId: admin.id, label: 'Acme' });
  return { workspace, accounts, admin, link };
}

const form = (overrides: Partial<RequestFormInput> = {}): RequestFormInput => ({
  key: randomUUID(),
  name: 'Carla',
  text: `Spring sale ${randomUUID()}`,
  note: 'Use the blue logo',
  timeZone: 'Europe/Berlin',
  ...overrides,
});

/** A new address per call: the per-address limit (20/min) stays out of tests about something else. */
const anyAddress = () => ({ address: `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}` });

const postsIn = async (workspaceId: string) =>
  (await db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, workspaceId)))[0]!.n;
const requestsIn = async (workspaceId: string) =>
  (await db.select({ n: count() }).from(postRequests).where(eq(postRequests.workspaceId, workspaceId)))[0]!.n;

async function waitForBlockedInserts(n: number) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const [row] = [
      ...(await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "post_requests"%'`)),
    ];
    if (row!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`fewer than ${n} request inserts blocked within 5 s`);
}

describe('client request form: one draft per form key (I3)', () => {
  it('I3: the same form sent three times is one draft, on every connected account; replays say already received', async () => {
    const { workspace, accounts, link } = await linkedWorkspace();
    const input = form();
    const first = await submitPostRequest(db, link.token, input, anyAddress());
    expect(first.kind).toBe('received');
    const again = await submitPostRequest(db, link.token, input, anyAddress());
    // A reload keeps the key; even a changed draft under the same key is the same request.
    const edited = await submitPostRequest(db, link.token, { ...input, text: 'changed' }, anyAddress());
    const postId = first.kind === 'received' ? first.postId : '';
    expect(again).toEqual({ kind: 'already_received', postId });
    expect(edited).toEqual({ kind: 'already_received', postId });
    expect(await postsIn(workspace.id)).toBe(1);
    const [post] = await db.select().from(posts).where(eq(posts.id, postId));
    expect(post).toMatchObject({ text: input.text, workspaceId: workspace.id, createdByUserId: null });
    const rows = await db.select().from(deliveries).where(eq(deliveries.postId, postId));
    expect(rows.map((d) => d.status)).toEqual(['draft', 'draft']);
    expect(rows.map((d) => d.accountId).sort()).toEqual(accounts.map((a) => a.id).sort());
    const [request] = await db.select().from(postRequests).where(eq(postRequests.postId, postId));
    expect(request).toMatchObject({ requesterName: 'Carla', note: 'Use the blue logo', requestLinkId: link.id });
    // A new key (a new request) is a second draft.
    expect((await submitPostRequest(db, link.token, form(), anyAddress())).kind).toBe('received');
    expect(await postsIn(workspace.id)).toBe(2);
  });

  it('I3 race: two parallel submits of one form, both in flight at once, make one draft; the other is a replay', async () => {
    const { workspace, link } = await linkedWorkspace();
    const input = form();
    // Both submits reach the key insert and wait there: the race is real, not one finishing before the other starts.
    const release = await holdLock(db, sql`lock table post_requests in share mode`);
    const a = submitPostRequest(db, link.token, input, anyAddress());
    const b = submitPostRequest(db, link.token, input, anyAddress());
    const stateA = settled(a);
    const stateB = settled(b);
    await waitForBlockedInserts(2);
    expect(stateA.done || stateB.done).toBe(false);
    await release();
    const results = await Promise.all([a, b]);
    expect(results.map((r) => r.kind).sort()).toEqual(['already_received', 'received']);
    const ids = new Set(results.map((r) => ('postId' in r ? r.postId : null)));
    expect(ids.size).toBe(1);
    expect(await postsIn(workspace.id)).toBe(1);
    expect(await requestsIn(workspace.id)).toBe(1);
  });

  it('the preferred time is read in the client’s zone and becomes the draft’s planned time', async () => {
    const { link } = await linkedWorkspace();
    const year = new Date().getUTCFullYear() + 1;
    const result = await submitPostRequest(
      db,
      link.token,
      form({ preferredLocal: `${year}-03-02T09:30`, timeZone: 'Europe/Berlin' }),
      anyAddress(),
    );
    if (result.kind !== 'received') throw new Error(JSON.stringify(result));
    const [post] = await db.select().from(posts).where(eq(posts.id, result.postId));
    expect(post!.scheduledAt.toISOString()).toBe(`${year}-03-02T08:30:00.000Z`);
  });
});

describe('client request form: refusals write nothing', () => {
  it('bad input is field errors and nothing is written', async () => {
    const { workspace, link } = await linkedWorkspace();
    const sameId = randomUUID();
    const cases: [Partial<RequestFormInput>, string][] = [
      [{ name: '  ' }, 'name'],
      [{ text: '' }, 'text'],
      [{ text: 'x'.repeat(5001) }, 'text'],
      [{ key: '' }, 'key'],
      [{ preferredLocal: '2020-01-01T10:00' }, 'preferredLocal'],
      [{ preferredLocal: 'tomorrow' }, 'preferredLocal'],
      [{ note: 'n'.repeat(2001) }, 'note'],
      [{ mediaIds: ['not-an-id'] }, 'mediaIds'],
      [{ mediaIds: [randomUUID()] }, 'mediaIds'],
      [{ mediaIds: Array.from({ length: 5 }, () => randomUUID()) }, 'mediaIds'],
      [{ mediaIds: Array.from({ length: 2 }, () => sameId) }, 'mediaIds'],
    ];
    for (const [overrides, field] of cases) {
      const result = await submitPostRequest(db, link.token, form(overrides), anyAddress());
      expect(result.kind, field).toBe('invalid');
      if (result.kind === 'invalid') expect(Object.keys(result.errors), field).toContain(field);
    }
    expect(await postsIn(workspace.id)).toBe(0);
    expect(await requestsIn(workspace.id)).toBe(0);
  });

  it('unknown, altered and revoked links are refused (404, 404, 410), revoking is audited', async () => {
    const { workspace, admin, link } = await linkedWorkspace();
    const [id, secret] = link.token.split('.') as [string, string];
    const altered = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await submitPostRequest(db, `${randomUUID()}.${secret}`, form(), anyAddress())).toMatchObject({
      kind: 'refused',
      status: 404,
    });
    expect(await submitPostRequest(db, altered, form(), anyAddress())).toMatchObject({ kind: 'refused', status: 404 });
    expect(await submitPostRequest(db, 'nonsense', form(), anyAddress())).toMatchObject({ status: 404 });
    expect(await revokeRequestLinkAudited(db, { workspaceId: workspace.id, userId: admin.id, id })).toBe(true);
    expect(await submitPostRequest(db, link.token, form(), anyAddress())).toMatchObject({
      kind: 'refused',
      status: 410,
      title: 'Link revoked',
    });
    expect(await postsIn(workspace.id)).toBe(0);
    const audit = await db.select().from(auditLog).where(eq(auditLog.workspaceId, workspace.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['request_link.created', 'request_link.revoked']);
  });

  it('21.5 the per-address window is counted first: 60 requests from one address leave a fresh address its turn', async () => {
    const { link } = await linkedWorkspace();
    const statuses: boolean[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await checkRequestLink(db, link.token, '203.0.113.50')).ok);
    expect(statuses.filter(Boolean)).toHaveLength(REQUEST_ADDRESS_RATE_PER_MINUTE);
    expect((await checkRequestLink(db, link.token, '203.0.113.51')).ok).toBe(true);
    // The refused requests spent nothing of the link's own window.
    const [row] = await db.execute<{ n: number }>(
      sql`select rate_window_count as n from request_links where id = ${link.id}`,
    );
    expect(row!.n).toBe(REQUEST_ADDRESS_RATE_PER_MINUTE + 1);
    expect(REQUEST_LINK_RATE_PER_MINUTE).toBeGreaterThanOrEqual(10 * REQUEST_ADDRESS_RATE_PER_MINUTE);
  });

  it('a link is limited per address (20 a minute), and the link as a whole to a far higher ceiling', async () => {
    const { workspace, link } = await linkedWorkspace();
    for (let i = 0; i < 20; i++) expect((await checkRequestLink(db, link.token, '203.0.113.7')).ok).toBe(true);
    expect(await submitPostRequest(db, link.token, form(), { address: '203.0.113.7' })).toMatchObject({
      kind: 'refused',
      status: 429,
    });
    // Another address still gets through, until the link's own limit.
    expect((await submitPostRequest(db, link.token, form(), { address: '203.0.113.8' })).kind).toBe('received');
    await db.execute(
      sql`update request_links set rate_window_count = ${REQUEST_LINK_RATE_PER_MINUTE} where id = ${link.id}`,
    );
    expect((await checkRequestLink(db, link.token, null)).ok).toBe(false);
    expect(await submitPostRequest(db, link.token, form(), { address: '203.0.113.9' })).toMatchObject({
      status: 429,
    });
    expect(await postsIn(workspace.id)).toBe(1);
    // A new window starts after a minute, and ended address windows are dropped.
    await db.execute(
      sql`update request_links set rate_window_start = now() - interval '61 seconds' where id = ${link.id}`,
    );
    await db.execute(
      sql`update request_address_windows set rate_window_start = now() - interval '61 seconds' where request_link_id = ${link.id}`,
    );
    expect((await checkRequestLink(db, link.token, '203.0.113.7')).ok).toBe(true);
    const windows = await db.execute<{ address: string }>(
      sql`select address from request_address_windows where request_link_id = ${link.id}`,
    );
    expect([...windows].map((w) => w.address)).toEqual(['203.0.113.7']);
  });

  it('a workspace without a connected account takes no requests', async () => {
    const workspace = await makeWorkspace(db);
    const admin = await makeUser(db);
    const link = await createRequestLink(db, { workspaceId: workspace.id, userId: admin.id, label: 'Empty' });
    expect(await submitPostRequest(db, link.token, form(), anyAddress())).toMatchObject({ status: 422 });
    expect(await requestsIn(workspace.id)).toBe(0);
  });
});

describe('client request form: tenancy (I6)', () => {
  it('I6: a link writes only into its own workspace and attaches only images uploaded through it', async () => {
    const a = await linkedWorkspace();
    const b = await linkedWorkspace();
    const image = (workspaceId: string, createdBy: string) =>
      db
        .insert(media)
        .values({ workspaceId, sha256: 'a'.repeat(64), type: 'image/png', width: 1, height: 1, size: 1, createdBy })
        .returning()
        .then((rows) => rows[0]!.id);
    const own = await image(a.workspace.id, `request_link:${a.link.id}`);
    const teams = await image(a.workspace.id, `user:${a.admin.id}`);
    const otherWorkspace = await image(b.workspace.id, `request_link:${b.link.id}`);
    for (const id of [teams, otherWorkspace])
      expect((await submitPostRequest(db, a.link.token, form({ mediaIds: [id] }), anyAddress())).kind).toBe('invalid');
    const result = await submitPostRequest(db, a.link.token, form({ mediaIds: [own] }), anyAddress());
    if (result.kind !== 'received') throw new Error(JSON.stringify(result));
    expect(
      await db.select({ mediaId: postMedia.mediaId }).from(postMedia).where(eq(postMedia.postId, result.postId)),
    ).toEqual([{ mediaId: own }]);
    expect(await postsIn(a.workspace.id)).toBe(1);
    expect(await postsIn(b.workspace.id)).toBe(0);
    // Revoking through another workspace finds nothing.
    expect(await revokeRequestLink(db, { workspaceId: b.workspace.id, id: a.link.id })).toBeNull();
    expect((await checkRequestLink(db, a.link.token, null)).ok).toBe(true);
    expect(
      (
        await db
          .select()
          .from(postRequests)
          .where(and(eq(postRequests.workspaceId, b.workspace.id)))
      ).length,
    ).toBe(0);
  });
});
