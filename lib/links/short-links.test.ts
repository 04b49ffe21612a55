process.env.OUTBOUND_ALLOWED_HOSTS = 'localhost';
process.env.APP_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64'); // TEST_ENCRYPTION_KEY, before getEnv() reads it

import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUtmPreset, deleteUtmPreset, listPostShortLinks, saveLinkSettings } from '@/db/queries/links';
import { shortLinks } from '@/db/schema';
import { encryptSecret } from '@/lib/crypto/secret-box';
import { createPost } from '@/lib/posts/create';
import { editPost } from '@/lib/posts/edit';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { makeWorkspace } from '@/testing/db/factories';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import { startShortenerFakes } from '@/testing/shorteners';
import { GET as followRoute, HEAD as headRoute } from '@/app/l/[code]/route';
import { followShortLink } from './redirect';
import { getOrCreateShortLink, shortLinkOriginOf } from './short-link';
import { EXTERNAL_SHORTENERS } from './shorteners';
import { saveLinkTrackingSettings, shortenerSecretContext } from './settings';

// Short links and UTM (docs/content.md#short-links-and-utm): one row per (workspace, target URL, UTM) — a constraint,
// raced by parallel connections —, clicks counted per link and day for people only (bots by user agent are not), no
// visitor data kept; external shorteners (Bitly, Shlink, YOURLS) through the outbound guard against local fakes of
// their wire formats; a post's links tracked per network when it is saved, and published that way.

const sandbox = await startTestSandbox();
const { db } = sandbox;
const fakes = await startShortenerFakes();
process.env.DATABASE_URL = lastTestDatabaseUrl(); // the /l/<code> route reads through the app's own getDb()

const utm = (source: string, campaign = 'spring') => ({ source, medium: 'social', campaign });
const rowsFor = async (workspaceId: string) =>
  db.select().from(shortLinks).where(eq(shortLinks.workspaceId, workspaceId));
const clicksOf = async (id: string) =>
  (
    await db.execute<{ n: number }>(
      sql`select coalesce(sum(clicks), 0)::int as n from short_link_clicks where short_link_id = ${id}`,
    )
  )[0]!.n;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('short links — one intent, one row', () => {
  it('the same (workspace, target URL, UTM) twice is one row; another network or campaign is another', async () => {
    const ws = await makeWorkspace(db);
    const target = `https://example.com/spring?item=${randomUUID()}`;
    const first = await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('x') });
    const again = await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('x') });
    expect(first.ok && again.ok && [first.created, again.created]).toEqual([true, false]);
    expect(first.ok && again.ok && again.link.id).toBe(first.ok && first.link.id);
    expect(first.ok && first.link.destination).toBe(`${target}&utm_source=x&utm_medium=social&utm_campaign=spring`);
    await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('mastodon') });
    await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('x', 'summer') });
    expect(await rowsFor(ws.id)).toHaveLength(3);
  });

  it('I3 — 25 parallel connections asking for the same link: one row, every caller gets it', async () => {
    const ws = await makeWorkspace(db);
    const target = `https://example.com/race/${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        db.transaction((tx) => getOrCreateShortLink(tx, { workspaceId: ws.id, targetUrl: target, utm: utm('x') })),
      ),
    );
    const rows = await rowsFor(ws.id);
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((a) => a.ok && a.link.id))).toEqual(new Set([rows[0]!.id]));
    expect(answers.filter((a) => a.ok && a.created)).toHaveLength(1);
  });
});

describe('short links — clicks', () => {
  it('a person’s click is counted; a bot’s, a preview’s, a HEAD and an agent-less request are not', async () => {
    const ws = await makeWorkspace(db);
    const made = await getOrCreateShortLink(db, {
      workspaceId: ws.id,
      targetUrl: 'https://example.com/a',
      utm: utm('x'),
    });
    if (!made.ok) throw new Error(made.reason);
    const { code, id } = made.link;
    const follow = (userAgent: string | null, method = 'GET') => followShortLink(db, { code, userAgent, method });
    expect(await follow(CHROME)).toMatchObject({ found: true, counted: true });
    for (const bot of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Twitterbot/1.0',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mastodon/4.3.0 (http.rb/5.2.0; +https://mastodon.social/)',
    ])
      expect(await follow(bot), bot).toMatchObject({ found: true, counted: false });
    expect(await follow(null)).toMatchObject({ counted: false });
    expect(await follow(CHROME, 'HEAD')).toMatchObject({ counted: false });
    expect(await follow(CHROME)).toMatchObject({ counted: true });
    expect(await clicksOf(id)).toBe(2);
    expect(await followShortLink(db, { code: 'nope0000', userAgent: CHROME, method: 'GET' })).toEqual({
      found: false,
    });
    // No personal data: the click table has the link, the day and a count — nothing else.
    const columns = await db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'short_link_clicks' order by 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['clicks', 'day', 'short_link_id']);
  });

  it('/l/<code> answers 302 to the destination, never cached; an unknown code is a 404', async () => {
    const ws = await makeWorkspace(db);
    const made = await getOrCreateShortLink(db, {
      workspaceId: ws.id,
      targetUrl: 'https://example.com/route',
      utm: utm('bluesky'),
    });
    if (!made.ok) throw new Error(made.reason);
    const req = (method: string, ua: string) =>
      new Request(`http://localhost/l/${made.link.code}`, { method, headers: { 'user-agent': ua } });
    const params = { params: Promise.resolve({ code: made.link.code }) };
    const res = await followRoute(req('GET', CHROME), params);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(made.link.destination);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await headRoute(req('HEAD', CHROME), params)).status).toBe(302);
    expect(await clicksOf(made.link.id)).toBe(1);
    const missing = await followRoute(req('GET', CHROME), { params: Promise.resolve({ code: 'zzzzzzz' }) });
    expect(missing.status).toBe(404);
  });
});

describe('external shorteners — their wire formats, through the outbound guard', () => {
  for (const name of ['bitly', 'shlink', 'yourls'] as const)
    it(`${name}: the short link it answers is kept; the same link again asks it nothing`, async () => {
      const ws = await makeWorkspace(db);
      const using = { shortener: name, config: { baseUrl: fakes.url, secret: fakes.secrets[name] } };
      const target = `https://example.com/${name}/${randomUUID()}`;
      const before = fakes.calls[name];
      const made = await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('x') }, using);
      expect(made.ok && made.link.shortUrl).toMatch(new RegExp(`^${fakes.url}/${name}/`));
      expect(made.ok && made.link.shortener).toBe(name);
      const again = await getOrCreateShortLink(db, { workspaceId: ws.id, targetUrl: target, utm: utm('x') }, using);
      expect(again.ok && again.link.id).toBe(made.ok && made.link.id);
      expect(fakes.calls[name] - before).toBe(1);
      // The service itself keeps one link per long URL: a repeated call (a crash before our insert) names the same one.
      const direct = await EXTERNAL_SHORTENERS[name].shorten(made.ok ? made.link.destination : '', using.config);
      expect(direct).toEqual({ ok: true, shortUrl: made.ok && made.link.shortUrl });
    });

  it('a wrong secret or an internal address is refused with the reason; nothing is stored', async () => {
    const ws = await makeWorkspace(db);
    const wrong = await getOrCreateShortLink(
      db,
      { workspaceId: ws.id, targetUrl: 'https://example.com/w', utm: utm('x') },
      { shortener: 'bitly', config: { baseUrl: fakes.url, secret: 'nope' } },
    );
    expect(wrong).toEqual({ ok: false, reason: 'Bitly answered HTTP 403' });
    const internal = await getOrCreateShortLink(
      db,
      { workspaceId: ws.id, targetUrl: 'https://example.com/i', utm: utm('x') },
      { shortener: 'shlink', config: { baseUrl: fakes.url.replace('localhost', '127.0.0.1'), secret: 'shlink-key' } },
    );
    expect(internal.ok).toBe(false);
    expect(!internal.ok && internal.reason).toMatch(/^Shlink: .*(private|loopback|internal)/i);
    expect(await rowsFor(ws.id)).toEqual([]);
  });
});

describe('a post’s links, tracked per network when it is saved and published that way', () => {
  it('UTM source = the network, medium and campaign from the preset, shortened by Semel; a second post reuses them', async () => {
    const x = await sandbox.connectAccount('x');
    const mastodon = await sandbox.connectAccount('mastodon', x.workspaceId);
    const workspaceId = x.workspaceId;
    await saveLinkSettings(db, { workspaceId, utm: true, shorten: true, shortener: 'semel', shortenerUrl: null });
    await db.transaction((tx) =>
      createUtmPreset(tx, { workspaceId, name: 'Spring', medium: 'social', campaign: 'spring-sale', isDefault: true }),
    );
    const target = `https://shop.example.com/spring?ref=${randomUUID().slice(0, 6)}`;
    const make = (label: string) =>
      createPost(
        db,
        createPostRequestSchema.parse({
          text: `${sandbox.uniqueText(label)} — see ${target}.`,
          accountIds: [x.productAccountId, mastodon.productAccountId],
        }),
        { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
      );
    const created = await make('tracked');
    if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
    const links = await listPostShortLinks(db, { workspaceId, postId: created.postId });
    expect(links.map((l) => [l.network, l.targetUrl, l.destination])).toEqual([
      ['mastodon', target, `${target}&utm_source=mastodon&utm_medium=social&utm_campaign=spring-sale`],
      ['x', target, `${target}&utm_source=x&utm_medium=social&utm_campaign=spring-sale`],
    ]);
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url));
    for (const [account, network] of [
      [x, 'x'],
      [mastodon, 'mastodon'],
    ] as const) {
      const link = links.find((l) => l.network === network)!;
      const stored = (await sandbox.allPosts(account.sandboxAccount.id)).map((p) => p.text);
      expect(
        stored.some((t) => t.includes(`/l/${link.code}.`)),
        network,
      ).toBe(true);
      expect(
        stored.some((t) => t.includes('shop.example.com')),
        network,
      ).toBe(false);
    }
    const second = await make('again');
    if (second.kind !== 'ok') throw new Error(JSON.stringify(second));
    expect((await listPostShortLinks(db, { workspaceId, postId: second.postId })).map((l) => l.id).sort()).toEqual(
      links.map((l) => l.id).sort(),
    );
    expect(await rowsFor(workspaceId)).toHaveLength(2);
  });

  it('an external shortener’s secret is sealed to its workspace and opened only to shorten', async () => {
    const x = await sandbox.connectAccount('x');
    const workspaceId = x.workspaceId;
    await saveLinkSettings(db, {
      workspaceId,
      utm: false,
      shorten: true,
      shortener: 'yourls',
      shortenerUrl: fakes.url,
      shortenerSecretSealed: encryptSecret(
        fakes.secrets.yourls,
        TEST_ENCRYPTION_KEY,
        shortenerSecretContext(workspaceId, 'yourls', fakes.url),
      ),
    });
    const target = `https://example.com/yourls-post/${randomUUID()}`;
    const created = await createPost(
      db,
      createPostRequestSchema.parse({ text: `read ${target}`, accountIds: [x.productAccountId] }),
      { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
    const [link] = await listPostShortLinks(db, { workspaceId, postId: created.postId });
    expect(link).toMatchObject({ shortener: 'yourls', targetUrl: target, destination: target, network: 'x' });
    expect(link!.shortUrl).toMatch(new RegExp(`^${fakes.url}/yourls/`));
  });

  it('a stored shortener secret is never sent to another server: a new shortener or URL needs it again', async () => {
    const x = await sandbox.connectAccount('x');
    const workspaceId = x.workspaceId;
    const elsewhere = await startShortenerFakes(); // another server (its own port), taking the same secret
    const save = (shortener: 'yourls' | 'semel', url: string | null, secret?: string) =>
      saveLinkTrackingSettings(
        db,
        { workspaceId, utm: false, shorten: true, shortener, shortenerUrl: url, shortenerSecret: secret },
        TEST_ENCRYPTION_KEY,
      );
    const stored = async () =>
      (
        await db.execute<{ url: string | null; sealed: string | null }>(sql`
        select shortener_url as url, shortener_secret_sealed as sealed from link_settings
        where workspace_id = ${workspaceId}`)
      )[0]!;
    expect(await save('yourls', fakes.url)).toEqual({
      ok: false,
      errors: { shortenerSecret: ['Required for this shortener'] },
    });
    expect(await save('yourls', fakes.url, fakes.secrets.yourls)).toEqual({ ok: true });
    expect(await save('yourls', fakes.url)).toEqual({ ok: true }); // the same server: kept
    const before = await stored();
    // Another URL with the secret left blank: refused, nothing saved.
    expect(await save('yourls', elsewhere.url)).toEqual({
      ok: false,
      errors: { shortenerSecret: [expect.stringMatching(/^Give it again: the shortener or its URL changed/)] },
    });
    expect(await stored()).toEqual(before);

    // Even if the row comes to name another server (two saves racing), the secret does not open for it.
    await db.execute(
      sql`update link_settings set shortener_url = ${elsewhere.url} where workspace_id = ${workspaceId}`,
    );
    const made = await createPost(
      db,
      createPostRequestSchema.parse({
        text: `read https://example.com/moved/${randomUUID()}`,
        accountIds: [x.productAccountId],
      }),
      { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    expect(made).toMatchObject({
      kind: 'invalid',
      errors: { text: [expect.stringMatching(/give the shortener’s secret again/)] },
    });
    expect(elsewhere.calls.yourls).toBe(0);

    expect(await save('semel', null)).toEqual({ ok: true }); // Semel's own links take no secret: dropped
    expect((await stored()).sealed).toBeNull();
    expect(await save('yourls', elsewhere.url, elsewhere.secrets.yourls)).toEqual({ ok: true });
    const again = await createPost(
      db,
      createPostRequestSchema.parse({
        text: `read https://example.com/now/${randomUUID()}`,
        accountIds: [x.productAccountId],
      }),
      { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    expect(again.kind).toBe('ok');
    expect(elsewhere.calls.yourls).toBe(1);
  });

  it('an edit tracks links again only when its texts, accounts or links change, and a replay never does', async () => {
    const x = await sandbox.connectAccount('x');
    const workspaceId = x.workspaceId;
    await saveLinkSettings(db, { workspaceId, utm: true, shorten: false, shortener: 'semel', shortenerUrl: null });
    const presetId = (await db.transaction((tx) =>
      createUtmPreset(tx, { workspaceId, name: 'Launch', medium: 'email', campaign: 'launch', isDefault: false }),
    ))!;
    const target = `https://shop.example.com/edit-${randomUUID().slice(0, 6)}`;
    const created = await createPost(
      db,
      createPostRequestSchema.parse({
        text: `see ${target}`,
        accountIds: [x.productAccountId],
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
    const trackedTexts = async () =>
      [
        ...(await db.execute<{ text: string }>(
          sql`select text from post_link_texts where post_id = ${created.postId} order by part`,
        )),
      ].map((r) => r.text);
    expect(await trackedTexts()).toEqual([`see ${target}?utm_source=x&utm_medium=social`]);

    // A pure reschedule after the settings changed: the texts stay as they were made.
    await saveLinkSettings(db, { workspaceId, utm: false, shorten: false, shortener: 'semel', shortenerUrl: null });
    const moved = await editPost(db, {
      workspaceId,
      postId: created.postId,
      changes: { scheduledAt: new Date(Date.now() + 7_200_000).toISOString() },
      actor: 'test',
      idempotencyKey: randomUUID(),
    });
    expect(moved.kind).toBe('ok');
    expect(await trackedTexts()).toEqual([`see ${target}?utm_source=x&utm_medium=social`]);

    // A keyed edit that changes the links is tracked once; its replay answers the stored response, whatever changed.
    await saveLinkSettings(db, { workspaceId, utm: true, shorten: false, shortener: 'semel', shortenerUrl: null });
    const key = randomUUID();
    const edit = () =>
      editPost(db, {
        workspaceId,
        postId: created.postId,
        changes: { links: { presetId } },
        actor: 'test',
        idempotencyKey: key,
      });
    expect(await edit()).toMatchObject({ kind: 'ok', replayed: false });
    expect(await trackedTexts()).toEqual([`see ${target}?utm_source=x&utm_medium=email&utm_campaign=launch`]);
    await deleteUtmPreset(db, { workspaceId, id: presetId }); // tracking it again would now be refused
    expect(await edit()).toMatchObject({ kind: 'ok', replayed: true });
    expect(await trackedTexts()).toEqual([`see ${target}?utm_source=x&utm_medium=email&utm_campaign=launch`]);
  });

  it('shortened without UTM tags: still one short link per network, so clicks are counted per network', async () => {
    const x = await sandbox.connectAccount('x');
    const mastodon = await sandbox.connectAccount('mastodon', x.workspaceId);
    const workspaceId = x.workspaceId;
    await saveLinkSettings(db, { workspaceId, utm: false, shorten: true, shortener: 'semel', shortenerUrl: null });
    const target = `https://shop.example.com/untagged-${randomUUID().slice(0, 6)}`;
    const created = await createPost(
      db,
      createPostRequestSchema.parse({
        text: `see ${target}`,
        accountIds: [x.productAccountId, mastodon.productAccountId],
      }),
      { workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
    );
    if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
    const links = await listPostShortLinks(db, { workspaceId, postId: created.postId });
    expect(links.map((l) => [l.network, l.destination, l.utmMedium, l.utmCampaign])).toEqual([
      ['mastodon', target, '', ''],
      ['x', target, '', ''],
    ]);
    expect(new Set(links.map((l) => l.code)).size).toBe(2);
    const viaX = links.find((l) => l.network === 'x')!;
    await followShortLink(db, { code: viaX.code, userAgent: CHROME, method: 'GET' });
    expect(await clicksOf(viaX.id)).toBe(1);
    expect(await clicksOf(links.find((l) => l.network === 'mastodon')!.id)).toBe(0);
  });

  it('a post naming a UTM preset not of its workspace is refused, links or not, tracking on or not', async () => {
    const x = await sandbox.connectAccount('x'); // its workspace tracks nothing
    const other = await makeWorkspace(db);
    const foreign = (await db.transaction((tx) =>
      createUtmPreset(tx, { workspaceId: other.id, name: 'Theirs', medium: 'social', campaign: '', isDefault: false }),
    ))!;
    for (const presetId of [foreign, randomUUID()]) {
      const made = await createPost(
        db,
        createPostRequestSchema.parse({ text: 'no link here', accountIds: [x.productAccountId], links: { presetId } }),
        { workspaceId: x.workspaceId, source: 'api', idempotencyKey: randomUUID(), actor: 'test' },
      );
      expect(made).toEqual({ kind: 'invalid', errors: { 'links.presetId': ['No such UTM preset in this workspace'] } });
    }
  });

  it('Semel’s short links in production need SHORT_LINK_DOMAIN or NEXTAUTH_URL: never a local address', () => {
    const production = { NODE_ENV: 'production', PORT: 3000 } as const;
    expect(shortLinkOriginOf(production)).toBeNull();
    expect(shortLinkOriginOf({ ...production, NEXTAUTH_URL: 'https://semel.example.com/app' })).toBe(
      'https://semel.example.com',
    );
    expect(shortLinkOriginOf({ ...production, SHORT_LINK_DOMAIN: 'https://go.example.com' })).toBe(
      'https://go.example.com',
    );
    expect(shortLinkOriginOf({ NODE_ENV: 'development', PORT: 3100 })).toBe('http://localhost:3100');
  });
});
