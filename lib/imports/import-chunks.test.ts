import { randomUUID } from 'node:crypto';
import { and, count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { importCsv, importCsvChunk } from './import-csv';
import { IMPORT_CHUNK_POSTS, previewImport, type ImportContext } from './run';

// The import page's path: preview, then the file in chunks (one transaction each), as app/api/app/imports/ runs it.
const { db } = await createTestDatabase({ max: 10 });
let context: ImportContext;
beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  await makeAccount(db, workspace.id, { provider: 'x', handle: '@brand' });
  context = { workspaceId: workspace.id, source: 'form', actor: 'user:test' };
});

const at = (days: number, minute = 0) => new Date(Date.now() + days * 86_400_000 + minute * 60_000).toISOString();
const file = (csv: string, fileName = 'ui.csv') => ({ bytes: new TextEncoder().encode(csv), fileName });
const postsLike = async (prefix: string) =>
  (
    await db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.workspaceId, context.workspaceId), like(posts.text, `${prefix}%`)))
  )[0]!.n;

describe('the import page: preview and chunks', () => {
  it('previews without writing, imports chunk by chunk, and a repeated chunk or the API afterwards creates nothing', async () => {
    const tag = randomUUID().slice(0, 8);
    const n = IMPORT_CHUNK_POSTS * 2 + 10;
    const csv =
      'text,accounts,scheduled_at\n' + Array.from({ length: n }, (_, i) => `${tag} ${i},@brand,${at(3, i)}`).join('\n');
    const preview = await previewImport(db, file(csv), context);
    expect(preview.ok && preview.preview.counts).toEqual({
      rows: n,
      new: n,
      alreadyImported: 0,
      editedCopies: 0,
      invalid: 0,
    });
    expect(await postsLike(tag)).toBe(0);

    const importId = randomUUID();
    const done: number[] = [];
    for (let chunk = 0; ; chunk++) {
      const answer = await importCsvChunk(db, file(csv), { ...context, importId, chunk });
      if (!answer.ok) throw new Error(answer.detail);
      expect(answer.rows.every((r) => r.status === 'created')).toBe(true);
      done.push(answer.postsDone);
      if (answer.postsDone >= answer.postsTotal) break;
    }
    expect(done).toEqual([IMPORT_CHUNK_POSTS, IMPORT_CHUNK_POSTS * 2, n]);
    expect(await postsLike(tag)).toBe(n);

    // A double click (chunk 0 again) creates nothing.
    const again = await importCsvChunk(db, file(csv), { ...context, importId, chunk: 0 });
    expect(again.ok && again.rows.every((r) => r.status === 'already_imported')).toBe(true);
    // The preview of the same file: all already imported; the API with the same file: the same posts.
    const second = await previewImport(db, file(csv), context);
    expect(second.ok && second.preview.counts.alreadyImported).toBe(n);
    const api = await importCsv(db, file(csv), { ...context, source: 'api', idempotencyKey: randomUUID() });
    if (!('kind' in api) || api.kind !== 'ok') throw new Error('the API import was refused');
    expect(JSON.parse(api.stored.body).counts).toMatchObject({
      new: 0,
      alreadyImported: n,
    });
    expect(await postsLike(tag)).toBe(n);
  });

  it('the preview flags an edited copy of an earlier row, naming the row, the file and when', async () => {
    const tag = randomUUID().slice(0, 8);
    const time = at(4);
    await importCsvChunk(db, file(`text,accounts,scheduled_at\n${tag} Helo world,@brand,${time}\n`, 'first.csv'), {
      ...context,
      importId: randomUUID(),
      chunk: 0,
    });
    const preview = await previewImport(
      db,
      file(`text,accounts,scheduled_at\n${tag} Hello world,@brand,${time}\n`),
      context,
    );
    expect(preview.ok && preview.preview.rows[0]).toMatchObject({
      row: 2,
      status: 'new',
      editedCopyOf: { row: 2, fileName: 'first.csv', importedAt: expect.any(String) },
    });
    expect(preview.ok && preview.preview.counts.editedCopies).toBe(1);
  });

  it("another workspace's import id is refused and writes nothing", async () => {
    const other = await makeWorkspace(db);
    const importId = randomUUID();
    const tag = randomUUID().slice(0, 8);
    const csv = `text,accounts,scheduled_at\n${tag} x,@brand,${at(5)}\n`;
    await importCsvChunk(db, file(csv), { ...context, importId, chunk: 0 });
    const refused = await importCsvChunk(db, file(`text,accounts,scheduled_at\n${tag} y,@brand,${at(5)}\n`), {
      ...context,
      workspaceId: other.id,
      importId,
      chunk: 0,
    });
    expect(refused).toMatchObject({ ok: false, status: 409 });
    expect(await postsLike(tag)).toBe(1);
  });

  it("a chunk reports its rows that a network refuses (X's limit) beside those it created", async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = `text,accounts,scheduled_at\n${tag} fits,@brand,${at(6)}\n${tag} ${'y'.repeat(300)},@brand,${at(6)}\n`;
    const answer = await importCsvChunk(db, file(csv), { ...context, importId: randomUUID(), chunk: 0 });
    if (!answer.ok) throw new Error(answer.detail);
    expect(answer.rows.map((r) => [r.row, r.status])).toEqual([
      [2, 'created'],
      [3, 'invalid'],
    ]);
    expect(answer.rows[1]!.errors![0]).toMatch(/^text: \d+\/280 characters: too long for @brand/);
    expect(answer.rows[1]!.cells?.accounts).toBe('@brand');
    expect([answer.postsDone, answer.postsTotal]).toEqual([2, 2]);
    expect(await postsLike(tag)).toBe(1);
  });
});
