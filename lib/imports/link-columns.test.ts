import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUtmPreset, saveLinkSettings } from '@/db/queries/links';
import { postLinkTexts, postShortLinks, posts, shortLinks } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { importCsv, importCsvChunk } from './import-csv';
import type { ImportContext } from './run';

// The import's link columns (docs/publishing.md#import): `track_links`, `utm_preset` and `utm_campaign`, the API's
// `links: { track, presetId, campaign }` for each row. A row's links are tracked per network as the composer's and
// the API's are (post_link_texts, what the publisher sends); a row whose links cannot be tracked is that row's error;
// the same file again creates nothing, and no short link twice.

const { db } = await createTestDatabase({ max: 10 });
const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function workspaceWithLinks(settings: { utm: boolean; shorten: boolean }) {
  const workspace = await makeWorkspace(db);
  const x = await makeAccount(db, workspace.id, { provider: 'x', handle: '@brand' });
  const mastodon = await makeAccount(db, workspace.id, { provider: 'mastodon', handle: '@brand@social.test' });
  const bluesky = await makeAccount(db, workspace.id, { provider: 'bluesky', handle: '@brand.bsky.test' });
  await saveLinkSettings(db, { workspaceId: workspace.id, ...settings, shortener: 'semel', shortenerUrl: null });
  const [spring, newsletter] = await db.transaction(async (tx) => [
    await createUtmPreset(tx, {
      workspaceId: workspace.id,
      name: 'Spring',
      medium: 'social',
      campaign: 'spring-sale',
      isDefault: true,
    }),
    await createUtmPreset(tx, {
      workspaceId: workspace.id,
      name: 'Newsletter',
      medium: 'email',
      campaign: 'weekly',
      isDefault: false,
    }),
  ]);
  const context: ImportContext = { workspaceId: workspace.id, source: 'api', actor: 'api-key:test' };
  return { context, x, mastodon, bluesky, presets: { spring: spring!, newsletter: newsletter! } };
}

type Rows = { row: number; status: string; postId?: string; errors?: string[] }[];
async function run(context: ImportContext, csv: string): Promise<Rows> {
  const result = await importCsv(
    db,
    { bytes: new TextEncoder().encode(csv), fileName: 'links.csv' },
    { ...context, idempotencyKey: randomUUID() },
  );
  if (!('kind' in result) || result.kind !== 'ok') throw new Error(JSON.stringify(result));
  return JSON.parse(result.stored.body).rows;
}
const trackedTexts = async (postId: string) =>
  (
    await db
      .select({ accountId: postLinkTexts.accountId, part: postLinkTexts.part, text: postLinkTexts.text })
      .from(postLinkTexts)
      .where(eq(postLinkTexts.postId, postId))
  ).map((t) => `${t.accountId}:${t.part}:${t.text}`);

describe('CSV import — link tracking columns', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithLinks>>;
  beforeAll(async () => {
    ws = await workspaceWithLinks({ utm: true, shorten: false });
  });

  it('tracked per network like the composer: the default preset, a named one with a campaign, none when track_links is no; again: nothing new', async () => {
    const { context, x, mastodon, presets } = ws;
    const tag = randomUUID().slice(0, 8);
    const url = `https://shop.example.com/${tag}`;
    const accounts = '@brand;@brand@social.test';
    const csv = [
      'text,accounts,scheduled_at,first_comment,track_links,utm_preset,utm_campaign',
      `"${tag} default ${url}",${accounts},${at(2)},"Shop: ${url}",,,`,
      `"${tag} named ${url}",${accounts},${at(2)},,yes,newsletter,launch`,
      `"${tag} untracked ${url}",${accounts},${at(2)},,No,,`,
    ].join('\n');
    const rows = await run(context, csv);
    expect(rows.map((r) => r.status)).toEqual(['created', 'created', 'created']);
    const [first, named, untracked] = rows.map((r) => r.postId!);
    const tagged = (network: string, medium: string, campaign: string) =>
      `${url}?utm_source=${network}&utm_medium=${medium}&utm_campaign=${campaign}`;
    // The default preset; the first comment's link too (each account's part 1).
    expect((await trackedTexts(first!)).sort()).toEqual(
      [
        `${x.id}:0:${tag} default ${tagged('x', 'social', 'spring-sale')}`,
        `${mastodon.id}:0:${tag} default ${tagged('mastodon', 'social', 'spring-sale')}`,
        `${x.id}:1:Shop: ${tagged('x', 'social', 'spring-sale')}`,
        `${mastodon.id}:1:Shop: ${tagged('mastodon', 'social', 'spring-sale')}`,
      ].sort(),
    );
    expect((await trackedTexts(named!)).sort()).toEqual(
      [
        `${x.id}:0:${tag} named ${tagged('x', 'email', 'launch')}`,
        `${mastodon.id}:0:${tag} named ${tagged('mastodon', 'email', 'launch')}`,
      ].sort(),
    );
    expect(await trackedTexts(untracked!)).toEqual([]);
    const stored = await db
      .select({ id: posts.id, links: posts.links })
      .from(posts)
      .where(inArray(posts.id, [first!, named!, untracked!]));
    expect(Object.fromEntries(stored.map((p) => [p.id, p.links]))).toEqual({
      [first!]: null,
      [named!]: { track: true, presetId: presets.newsletter, campaign: 'launch' },
      [untracked!]: { track: false },
    });
    const again = await run(context, csv);
    expect(again.map((r) => [r.status, r.postId])).toEqual(rows.map((r) => ['already_imported', r.postId]));
    expect(await trackedTexts(first!)).toHaveLength(4);
  });

  it('refused per row, the others imported: track_links not yes or no, an unknown preset, a long campaign, a tracked text too long', async () => {
    const { context } = ws;
    const tag = randomUUID().slice(0, 8);
    const url = `https://shop.example.com/${tag}`;
    // 300 graphemes on Bluesky as written; its UTM tags make it longer than Bluesky takes.
    const long = `${tag} ${'w'.repeat(300 - tag.length - url.length - 2)} ${url}`;
    const csv = [
      'text,accounts,scheduled_at,track_links,utm_preset,utm_campaign',
      `"${tag} a ${url}",@brand,${at(3)},maybe,,`,
      `"${tag} b ${url}",@brand,${at(3)},,Autumn,`,
      `"${tag} c ${url}",@brand,${at(3)},,,${'c'.repeat(101)}`,
      `"${long}",@brand.bsky.test,${at(3)},,,`,
      `"${tag} fine ${url}",@brand,${at(3)},,,`,
    ].join('\n');
    const rows = await run(context, csv);
    expect(rows.map((r) => r.status)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'created']);
    expect(rows[0]!.errors).toEqual(['track_links: "maybe" is not yes or no']);
    expect(rows[1]!.errors).toEqual(['utm_preset: no UTM preset "Autumn" in this workspace (Settings → Links)']);
    expect(rows[2]!.errors![0]).toMatch(/^utm_campaign: /);
    expect(rows[3]!.errors).toEqual([
      expect.stringMatching(/^links: \d+\/300 characters with its tracked links: too long for @brand\.bsky\.test$/),
    ]);
    const made = await db.select({ id: posts.id }).from(posts).where(eq(posts.workspaceId, context.workspaceId));
    expect(made.map((p) => p.id)).toContain(rows[4]!.postId);
    expect(made.filter((p) => rows.slice(0, 4).some((r) => r.postId === p.id))).toEqual([]);
  });
});

describe('CSV import — link tracking on the import page, with Semel short links', () => {
  it('each chunk shortens its posts’ links per network; the same chunk again creates no post and no short link', async () => {
    const { context, x, mastodon } = await workspaceWithLinks({ utm: true, shorten: true });
    const tag = randomUUID().slice(0, 8);
    const url = `https://shop.example.com/short/${tag}`;
    const csv = `text,accounts,scheduled_at\n"${tag} read ${url}",@brand;@brand@social.test,${at(5)}\n`;
    const chunk = () =>
      importCsvChunk(
        db,
        { bytes: new TextEncoder().encode(csv), fileName: 'page.csv' },
        { ...context, source: 'form', importId: randomUUID(), chunk: 0 },
      );
    const done = await chunk();
    if (!done.ok) throw new Error(JSON.stringify(done));
    const [row] = done.rows;
    expect(row).toMatchObject({ status: 'created' });
    const links = await db
      .select({ code: shortLinks.code, source: shortLinks.utmSource, destination: shortLinks.destination })
      .from(shortLinks)
      .innerJoin(postShortLinks, eq(postShortLinks.shortLinkId, shortLinks.id))
      .where(eq(postShortLinks.postId, row!.postId!))
      .orderBy(asc(shortLinks.utmSource));
    expect(links.map((l) => [l.source, l.destination])).toEqual([
      ['mastodon', `${url}?utm_source=mastodon&utm_medium=social&utm_campaign=spring-sale`],
      ['x', `${url}?utm_source=x&utm_medium=social&utm_campaign=spring-sale`],
    ]);
    const texts = await trackedTexts(row!.postId!);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${x.id}:0:${tag} read .*/l/${links[1]!.code}$`)),
        expect.stringMatching(new RegExp(`^${mastodon.id}:0:${tag} read .*/l/${links[0]!.code}$`)),
      ]),
    );
    expect(texts).toHaveLength(2);
    const again = await chunk();
    if (!again.ok) throw new Error(JSON.stringify(again));
    expect(again.rows[0]).toMatchObject({ status: 'already_imported', postId: row!.postId });
    const all = await db.select().from(shortLinks).where(eq(shortLinks.workspaceId, context.workspaceId));
    expect(all).toHaveLength(2);
  });
});
