import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTemplate } from '@/db/queries/library';
import { deliveries, posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { importCsv } from './import-csv';
import type { ImportContext } from './run';

// The import's content columns (docs/publishing.md#import): `first_comment` (a post's first comment, published as its
// part 1 where the network takes one) and `template` with a column per variable. Each row still takes effect once: the
// same file again creates nothing.

const { db } = await createTestDatabase({ max: 10 });
let context: ImportContext;
let x: Awaited<ReturnType<typeof makeAccount>>;
let linkedin: Awaited<ReturnType<typeof makeAccount>>;
beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  x = await makeAccount(db, workspace.id, { provider: 'x', handle: '@brand' });
  linkedin = await makeAccount(db, workspace.id, { provider: 'linkedin', handle: 'brandco' });
  context = { workspaceId: workspace.id, source: 'api', actor: 'api-key:test' };
});

const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const run = (csv: string) =>
  importCsv(
    db,
    { bytes: new TextEncoder().encode(csv), fileName: 'c.csv' },
    { ...context, idempotencyKey: randomUUID() },
  );
const rowsOf = async (result: Awaited<ReturnType<typeof run>>) => {
  if (!('kind' in result) || result.kind !== 'ok') throw new Error(JSON.stringify(result));
  return JSON.parse(result.stored.body).rows as { row: number; status: string; postId?: string; errors?: string[] }[];
};

describe('CSV import — first_comment', () => {
  it('a row with a first comment: part 1 on X (a reply), none on LinkedIn; the same file again creates nothing', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = `text,accounts,scheduled_at,first_comment\n"${tag} post",@brand;@brandco,${at(2)},"${tag} comment"\n`;
    const [row] = await rowsOf(await run(csv));
    expect(row).toMatchObject({ status: 'created' });
    const [post] = await db.select().from(posts).where(eq(posts.id, row!.postId!));
    expect(post!.firstComment).toBe(`${tag} comment`);
    const parts = await db
      .select({ accountId: deliveries.accountId, part: deliveries.part })
      .from(deliveries)
      .where(eq(deliveries.postId, post!.id))
      .orderBy(asc(deliveries.part));
    expect(parts.filter((d) => d.part === 1).map((d) => d.accountId)).toEqual([x.id]);
    expect(
      parts
        .filter((d) => d.part === 0)
        .map((d) => d.accountId)
        .sort(),
    ).toEqual([x.id, linkedin.id].sort());
    const [again] = await rowsOf(await run(csv));
    expect(again).toMatchObject({ status: 'already_imported', postId: post!.id });
  });

  it('a first comment too long for X, or on a thread row, is that row’s error; the other rows import', async () => {
    const tag = randomUUID().slice(0, 8);
    const csv = [
      'text,accounts,scheduled_at,first_comment,thread_group,part',
      `${tag} a,@brand,${at(3)},${'w'.repeat(281)},,`,
      `${tag} b,@brand,${at(3)},c,t1,1`,
      `${tag} c,@brand,${at(3)},,t1,2`,
      `${tag} d,@brand,${at(3)},fine,,`,
    ].join('\n');
    const rows = await rowsOf(await run(csv));
    expect(rows.map((r) => r.status)).toEqual(['invalid', 'invalid', 'invalid', 'created']);
    expect(rows[0]!.errors).toEqual(['first_comment: 281/280 characters: too long for a first comment on @brand']);
    expect(rows[1]!.errors).toContain('first_comment: a thread takes no first comment (add it as the next part)');
  });
});

describe('CSV import — template and variable columns', () => {
  it('a row names a template: its text and first comment filled from the row, its accounts the template’s', async () => {
    await createTemplate(db, {
      workspaceId: context.workspaceId,
      name: 'Launch',
      text: 'New in store: {{product}} at {{price}}',
      firstComment: 'Shop {{product}}: https://shop.example.com',
      accountIds: [x.id],
      timeOfDay: null,
      mediaIds: [],
    });
    const tag = randomUUID().slice(0, 8);
    const csv = [
      'template,product,price,scheduled_at,accounts',
      `launch,Lamp ${tag},€20,${at(4)},`,
      `Launch,Chair ${tag},,${at(4)},@brandco`,
      `Nope,x,y,${at(4)},`,
    ].join('\n');
    const rows = await rowsOf(await run(csv));
    expect(rows.map((r) => r.status)).toEqual(['created', 'invalid', 'invalid']);
    expect(rows[1]!.errors).toEqual(['template "Launch": no value for {{price}} (a column named price)']);
    expect(rows[2]!.errors![0]).toBe('template: no template "Nope" in this workspace');
    const [post] = await db.select().from(posts).where(eq(posts.id, rows[0]!.postId!));
    expect([post!.text, post!.firstComment]).toEqual([
      `New in store: Lamp ${tag} at €20`,
      `Shop Lamp ${tag}: https://shop.example.com`,
    ]);
    const targets = await db
      .select({ accountId: deliveries.accountId, part: deliveries.part })
      .from(deliveries)
      .where(eq(deliveries.postId, post!.id));
    expect(targets.map((d) => `${d.accountId}:${d.part}`).sort()).toEqual([`${x.id}:0`, `${x.id}:1`].sort());
    const [again] = await rowsOf(await run(csv));
    expect(again).toMatchObject({ status: 'already_imported', postId: post!.id });
  });
});
