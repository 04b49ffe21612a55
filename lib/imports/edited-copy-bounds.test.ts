import { randomUUID } from 'node:crypto';
import { and, count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { EDITED_COPY_CANDIDATES, EDITED_COPY_SCAN, findEditedCopies } from './classify';
import { importCsv, importCsvChunk } from './import-csv';
import { IMPORT_CHUNK_POSTS, previewImport, readImportFile, type ImportContext } from './run';
import type { ImportResult } from './types';

// Found in the second security review (docs/security.md#changed-in-the-second-security-review): the edited-copy check
// compared each new row with every imported row of its accounts and time, by a full edit distance — an adversarial file
// (one account, one time, near-identical texts) froze the event loop.
const { db } = await createTestDatabase({ max: 10 });
let context: ImportContext;
beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  await makeAccount(db, workspace.id, { provider: 'mastodon', handle: '@brand' });
  context = { workspaceId: workspace.id, source: 'form', actor: 'user:test' };
});

const file = (csv: string, fileName = 'adversarial.csv') => ({ bytes: new TextEncoder().encode(csv), fileName });
const filler = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
/** Rows of 280 characters, one account, one time, a key each, texts differing by a few characters. */
function adversarial(tag: string, time: string, from: number, rows: number) {
  const lines = Array.from({ length: rows }, (_, i) => {
    const n = from + i;
    return `${tag}-${n},${`${tag} ${String(n).padStart(5, '0')} ${filler}`.slice(0, 280)},@brand,${time}`;
  });
  return `key,text,accounts,scheduled_at\n${lines.join('\n')}\n`;
}
const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
async function planned(csv: string) {
  const read = await readImportFile(db, file(csv), context);
  if (!read.ok) throw new Error('the file was refused');
  return read.plan.posts;
}
const postsLike = async (prefix: string) =>
  (
    await db
      .select({ n: count() })
      .from(posts)
      .where(and(eq(posts.workspaceId, context.workspaceId), like(posts.text, `${prefix}%`)))
  )[0]!.n;

describe('21.2 an adversarial import stays bounded', () => {
  it('21.2 an adversarial import stays bounded: at most EDITED_COPY_CANDIDATES exact comparisons a row, each copy still flagged', async () => {
    const tag = randomUUID().slice(0, 8);
    const time = at(3);
    await importCsvChunk(db, file(adversarial(tag, time, 0, 60), 'first.csv'), {
      ...context,
      importId: randomUUID(),
      chunk: 0,
    });
    const next = await planned(adversarial(tag, time, 60, 30));
    const found = await findEditedCopies(db, context.workspaceId, next);
    // All 60 earlier rows are alike: comparing each new row with all of them was 30 × 60 = 1,800 comparisons.
    expect(found.comparisons).toBe(30 * EDITED_COPY_CANDIDATES);
    expect(found.copies.size).toBe(30);
    expect(found.unchecked.size).toBe(0);
    expect([...found.copies.values()].every((r) => r.fileName === 'first.csv' && r.row! >= 2 && r.row! <= 61)).toBe(
      true,
    );
    const preview = await previewImport(db, file(adversarial(tag, time, 60, 30)), context);
    expect(preview.ok && preview.preview.counts).toMatchObject({ rows: 30, new: 30, editedCopies: 30 });
  });

  it('21.2 through the API: every row of a file longer than a chunk is created once, the second chunk flagged as edited copies', async () => {
    const tag = randomUUID().slice(0, 8);
    const rows = IMPORT_CHUNK_POSTS + 40;
    const answer = await importCsv(db, file(adversarial(tag, at(4), 0, rows)), {
      ...context,
      source: 'api',
      idempotencyKey: randomUUID(),
    });
    if (!('kind' in answer) || answer.kind !== 'ok') throw new Error('the import was refused');
    const result = JSON.parse(answer.stored.body) as ImportResult;
    // The first chunk has no earlier rows; each row of the second resembles the first chunk's.
    expect(result.counts).toEqual({ rows, new: rows, alreadyImported: 0, editedCopies: 40, invalid: 0 });
    expect(result.rows.slice(IMPORT_CHUNK_POSTS).every((r) => r.status === 'created' && r.editedCopyOf)).toBe(true);
    expect(await postsLike(tag)).toBe(rows);
  });

  it('21.2 over the time budget or past the caps, a row is flagged "possible edited copy — check", never passed as plainly new', async () => {
    const tag = randomUUID().slice(0, 8);
    const time = at(5);
    await importCsvChunk(db, file(adversarial(tag, time, 0, EDITED_COPY_SCAN + 5), 'first.csv'), {
      ...context,
      importId: randomUUID(),
      chunk: 0,
    });
    const alike = await planned(adversarial(tag, time, 1000, 3));
    const overBudget = await findEditedCopies(db, context.workspaceId, alike, { budgetMs: 0 });
    expect([overBudget.comparisons, overBudget.copies.size, overBudget.unchecked.size]).toEqual([0, 0, 3]);

    // A text unlike every compared row, at a time holding more rows than were compared: not known to be new.
    const unlike = await planned(`text,accounts,scheduled_at\n${tag} something else entirely,@brand,${time}\n`);
    const capped = await findEditedCopies(db, context.workspaceId, unlike);
    expect([capped.comparisons, capped.copies.size, [...capped.unchecked]]).toEqual([
      EDITED_COPY_CANDIDATES,
      0,
      [unlike[0]!.postKey],
    ]);
    const preview = await previewImport(
      db,
      file(`text,accounts,scheduled_at\n${tag} something else entirely,@brand,${time}\n`),
      context,
    );
    expect(preview.ok && preview.preview.rows[0]).toMatchObject({ status: 'new', editedCopyUnchecked: true });
    expect(preview.ok && preview.preview.counts.editedCopies).toBe(1);
    // The same text at another time has no earlier rows to compare: plainly new.
    const elsewhere = await previewImport(
      db,
      file(`text,accounts,scheduled_at\n${tag} something else entirely,@brand,${at(6)}\n`),
      context,
    );
    expect(elsewhere.ok && elsewhere.preview.rows[0]).toEqual({ row: 2, status: 'new' });
  });
});
