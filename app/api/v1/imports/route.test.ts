import { randomUUID } from 'node:crypto';
import { and, count, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveries, importRows, postParts, posts } from '@/db/schema';
import { createApiFixture, noParams } from '@/testing/api-fixture';
import { makeAccount } from '@/testing/db/factories';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import type { ImportResult } from '@/lib/imports/types';
import { POST as importRoute } from './route';

const fixture = await createApiFixture();
let tenant: Awaited<ReturnType<typeof fixture.tenant>>;
beforeAll(async () => {
  tenant = await fixture.tenant();
  await makeAccount(fixture.db, tenant.workspace.id, { provider: 'x', handle: '@alice' });
  await makeAccount(fixture.db, tenant.workspace.id, { provider: 'mastodon', handle: '@bob' });
  await makeAccount(fixture.db, tenant.workspace.id, { provider: 'linkedin', handle: '@carol' });
});

const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 17) + '00.000Z';

function upload(csv: string | Uint8Array, options: { key?: string; name?: string; token?: string } = {}) {
  const form = new FormData();
  form.set(
    'file',
    new Blob([typeof csv === 'string' ? csv : Buffer.from(csv)], { type: 'text/csv' }),
    options.name ?? 'posts.csv',
  );
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? tenant.token}` };
  headers['idempotency-key'] = options.key ?? randomUUID();
  return importRoute(new Request('http://localhost/api/v1/imports', { method: 'POST', headers, body: form }), noParams);
}

async function imported(csv: string, options: { key?: string; name?: string } = {}) {
  const response = await upload(csv, options);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ImportResult;
}

const postsLike = async (prefix: string) =>
  (
    await fixture.db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.workspaceId, tenant.workspace.id), like(posts.text, `${prefix}%`)))
  )[0]!.n;

describe('POST /api/v1/imports', () => {
  it('I3 — the same file imported twice (any key) creates nothing the second time; each row once, with its deliveries', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = `text,accounts,scheduled_at\n${tag} one,@alice;@bob,${at(3)}\n${tag} two,@alice,${at(4)}\n`;
    const first = await imported(csv);
    expect(first.counts).toEqual({ rows: 2, new: 2, alreadyImported: 0, editedCopies: 0, invalid: 0 });
    expect(first.rows.map((r) => r.status)).toEqual(['created', 'created']);
    const [one] = await fixture.db.select().from(posts).where(eq(posts.id, first.rows[0]!.postId!));
    expect(one!.idempotencyKey).toMatch(/^import:[0-9a-f]{64}$/);
    expect(await fixture.db.select().from(deliveries).where(eq(deliveries.postId, one!.id))).toHaveLength(2);

    const second = await imported(csv);
    expect(second.counts).toEqual({ rows: 2, new: 0, alreadyImported: 2, editedCopies: 0, invalid: 0 });
    expect(second.rows.map((r) => [r.status, r.postId, r.alreadyImported?.row, r.alreadyImported?.fileName])).toEqual([
      ['already_imported', first.rows[0]!.postId, 2, 'posts.csv'],
      ['already_imported', first.rows[1]!.postId, 3, 'posts.csv'],
    ]);
    expect(await postsLike(tag)).toBe(2);
  });

  it('a file with one fixed typo creates one new post and flags the row it edits; the old post stays', async () => {
    const tag = randomUUID().slice(0, 8);
    const time = at(5);
    const rows = (typo: string) =>
      `text,accounts,scheduled_at\n${tag} launch day is ${typo},@alice,${time}\n${tag} unchanged,@bob,${time}\n`;
    const first = await imported(rows('tomorow'), { name: 'launch.csv' });
    const fixed = await imported(rows('tomorrow'), { name: 'launch.csv' });
    expect(fixed.counts).toEqual({ rows: 2, new: 1, alreadyImported: 1, editedCopies: 1, invalid: 0 });
    expect(fixed.rows[0]).toMatchObject({
      status: 'created',
      editedCopyOf: { postId: first.rows[0]!.postId, row: 2, fileName: 'launch.csv' },
    });
    expect(fixed.rows[0]!.postId).not.toBe(first.rows[0]!.postId);
    expect(fixed.rows[1]!.status).toBe('already_imported');
    expect(await postsLike(tag)).toBe(3); // never auto-deleted
    // A different post at the same time on the same account is not an edited copy.
    const other = await imported(`text,accounts,scheduled_at\nSomething else entirely here,@alice,${time}\n`);
    expect(other.rows[0]!.editedCopyOf).toBeUndefined();
  });

  it('invalid rows never block valid ones, and are listed with their errors and cells', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = [
      'text,accounts,scheduled_at,time_zone',
      `${tag} ok,@alice,${at(2)},`,
      `${tag} unknown account,@nobody,${at(2)},`,
      `${tag} past,@alice,2020-01-01T00:00:00Z,`,
      `${tag} bad time,@alice,next tuesday,`,
      `,@alice,${at(2)},`,
      `${tag} ${'x'.repeat(300)},@alice,${at(2)},`,
      `${tag} local,@alice,${at(2).slice(0, 16).replace('T', ' ')},Europe/Berlin`,
      `${tag} bad zone,@alice,${at(2).slice(0, 16)},Mars/Olympus`,
    ].join('\n');
    const result = await imported(csv);
    expect(result.rows.map((r) => r.status)).toEqual([
      'created',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'created',
      'invalid',
    ]);
    expect(result.rows[1]!.errors).toEqual(['accounts: no connected account "@nobody" in this workspace']);
    expect(result.rows[2]!.errors).toEqual(['scheduled_at: the time is in the past']);
    expect(result.rows[3]!.errors![0]).toMatch(/not ISO 8601/);
    expect(result.rows[4]!.errors).toEqual(['text: Text is required']);
    expect(result.rows[5]!.errors![0]).toMatch(/^text: \d+\/280 characters: too long for @alice/);
    expect(result.rows[7]!.errors![0]).toMatch(/^time_zone:/);
    expect(result.rows[1]!.cells).toMatchObject({ text: `${tag} unknown account`, accounts: '@nobody' });
    // The local time was read in Europe/Berlin.
    const [local] = await fixture.db.select().from(posts).where(eq(posts.id, result.rows[6]!.postId!));
    const wall = at(2).slice(0, 16);
    const berlin = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(local!.scheduledAt);
    expect(berlin.replace(' ', 'T')).toBe(wall);
    expect(result.counts).toMatchObject({ rows: 8, new: 2, invalid: 6 });
    expect(await postsLike(tag)).toBe(2);
  });

  it('threads from thread_group/part: one post, parts in part order, one delivery per part and account', async () => {
    const tag = randomUUID().slice(0, 8);
    const time = at(6);
    const csv = [
      'text,accounts,scheduled_at,thread_group,part',
      `${tag} second,,,t1,2`,
      `${tag} first,@alice;@bob,${time},t1,1`,
      `${tag} third,,,t1,3`,
      `${tag} single,@alice,${time},,`,
      `${tag} lonely,@alice,${time},t2,1`,
      `${tag} on linkedin,@carol,${time},t3,1`,
      `${tag} on linkedin 2,,,t3,2`,
      `${tag} on linkedin 3,,,t3,3`,
    ].join('\n');
    const result = await imported(csv);
    expect(result.rows.map((r) => r.status)).toEqual([
      'created',
      'created',
      'created',
      'created',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    const threadId = result.rows[0]!.postId!;
    expect(result.rows[1]!.postId).toBe(threadId);
    const [thread] = await fixture.db.select().from(posts).where(eq(posts.id, threadId));
    expect(thread).toMatchObject({ kind: 'thread', text: `${tag} first` });
    const parts = await fixture.db.select().from(postParts).where(eq(postParts.postId, threadId));
    expect(parts.sort((a, b) => a.position - b.position).map((p) => p.text)).toEqual([
      `${tag} first`,
      `${tag} second`,
      `${tag} third`,
    ]);
    expect(await fixture.db.select().from(deliveries).where(eq(deliveries.postId, threadId))).toHaveLength(6);
    const [origin] = await fixture.db.select().from(importRows).where(eq(importRows.postId, threadId));
    expect(origin!.rowNumber).toBe(3); // the row of part 1
    expect(result.rows[4]!.errors![0]).toMatch(/thread has 2–25 parts/);
    // LinkedIn takes a thread of two (the post and its first comment), not of three.
    expect(result.rows[5]!.errors!.join(' ')).toMatch(/LinkedIn takes a post and 1 comment \(.+\): at most 2 parts/);
    // Again: the thread is already imported.
    const again = await imported(csv);
    expect(again.rows.slice(0, 3).map((r) => r.status)).toEqual([
      'already_imported',
      'already_imported',
      'already_imported',
    ]);
  });

  it('I3 — two imports of one file racing on real connections: one post per row; both ran', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv =
      'text,accounts,scheduled_at\n' +
      Array.from({ length: 300 }, (_, i) => `${tag} row ${i},@alice;@bob,${at(7)}`).join('\n');
    // Gate: import A writes its posts, then waits (its transaction open) before recording its import rows…
    const release = await holdLock(fixture.db, sql`lock table import_rows in exclusive mode`);
    const a = upload(csv, { name: 'race.csv' });
    await untilBlocked(fixture.db, 'insert into "import_rows"');
    // …while import B, on its own connection, reaches the same rows' keys and waits for A's commit.
    const b = upload(csv, { name: 'race.csv' });
    await untilBlocked(fixture.db, 'insert into "posts"');
    const [stateA, stateB] = [settled(a), settled(b)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([stateA.done, stateB.done]).toEqual([false, false]); // both in flight at once
    await release();
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    const [resultA, resultB] = (await Promise.all([ra.json(), rb.json()])) as ImportResult[];
    // Both imports ran every row: A created each once, B found each already imported (the same post).
    expect(resultA!.importId).not.toBe(resultB!.importId);
    expect(resultA!.counts).toEqual({ rows: 300, new: 300, alreadyImported: 0, editedCopies: 0, invalid: 0 });
    expect(resultB!.counts).toEqual({ rows: 300, new: 0, alreadyImported: 300, editedCopies: 0, invalid: 0 });
    for (let i = 0; i < 300; i++) expect(resultB!.rows[i]!.postId).toBe(resultA!.rows[i]!.postId);
    expect(await postsLike(tag)).toBe(300);
  });

  it('I3 — two imports of one file started together, ungated: still one post per row', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv =
      'text,accounts,scheduled_at\n' +
      Array.from({ length: 500 }, (_, i) => `${tag} row ${i},@alice,${at(7)}`).join('\n');
    const results = (await Promise.all([imported(csv), imported(csv)])) as ImportResult[];
    expect(results[0]!.counts.new + results[1]!.counts.new).toBe(500);
    expect(results[0]!.counts.alreadyImported + results[1]!.counts.alreadyImported).toBe(500);
    expect(await postsLike(tag)).toBe(500);
  });

  it('replay: the same Idempotency-Key answers the stored result, marked replayed; another file with it is a 422', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = `text,accounts,scheduled_at\n${tag} replay,@alice,${at(8)}\n`;
    const key = randomUUID();
    const first = await upload(csv, { key });
    const again = await upload(csv, { key });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const body = await again.text();
    expect(body).toBe(await first.text());
    expect((JSON.parse(body) as ImportResult).counts.new).toBe(1); // the original answer, not "already imported"
    const other = await upload(`text,accounts,scheduled_at\n${tag} other,@alice,${at(8)}\n`, { key });
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toBe('application/problem+json');
    expect(await postsLike(tag)).toBe(1);
  });

  it('a bad file is a problem+json and writes nothing; the key stays free', async () => {
    const key = randomUUID();
    const cases: [string | Uint8Array, number, RegExp][] = [
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]), 400, /not UTF-8/],
      ['name,email\nx,y\n', 422, /missing: text, accounts, scheduled_at/],
      ['text,accounts,scheduled_at\n' + `a,@alice,${at(2)}\n`.repeat(5001), 422, /at most 5000/],
      ['text,accounts,scheduled_at\n"unclosed,@alice,x\n', 400, /could not be read as CSV/],
    ];
    for (const [csv, status, detail] of cases) {
      const response = await upload(csv, { key });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
    }
    const notMultipart = await importRoute(
      new Request('http://localhost/api/v1/imports', {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'idempotency-key': key, 'content-type': 'text/csv' },
        body: 'text,accounts,scheduled_at\n',
      }),
      noParams,
    );
    expect(notMultipart.status).toBe(415);
    const noKey = await importRoute(
      new Request('http://localhost/api/v1/imports', {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}` },
      }),
      noParams,
    );
    expect(noKey.status).toBe(400);
    // The key was never stored: a good file with it now imports.
    const ok = await upload(`text,accounts,scheduled_at\nafter bad files ${key},@alice,${at(2)}\n`, { key });
    expect(ok.status).toBe(201);
  });
});
