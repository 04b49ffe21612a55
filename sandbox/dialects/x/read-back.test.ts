import { describe, expect, it } from 'vitest';
import { xWeightedLength } from '@/lib/providers/x/text-length';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import type { Profile } from '@/sandbox/store/types';

// X reads a post back as X shows it (docs/sandbox.md#profiles): every link as a t.co link, with `entities.urls` when
// asked for (offsets in code points of the returned text); an X Premium post over 280 truncated, its whole text only in
// `note_tweet` when asked for. Real HTTP on the standalone server, both stores.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
type Tweet = {
  id: string;
  text: string;
  entities?: { urls: { start: number; end: number; url: string; expanded_url: string; display_url: string }[] };
  note_tweet?: { text: string; entities?: Tweet['entities'] };
};
const codePoints = (text: string, start: number, end: number) => [...text].slice(start, end).join('');

describe.each(backends)('X read-back as X shows it ($name)', async ({ start }) => {
  const sandbox = await start();
  const x = `${sandbox.url}/api/sandbox/x`;

  async function account(profile: Profile) {
    const a = await sandbox.connectAccount('x');
    await sandbox.setFaults(a.sandboxAccount.id, { profile });
    return a;
  }
  async function tweet(token: string, text: string) {
    const res = await fetch(`${x}/2/tweets`, {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    return { status: res.status, body: (await res.json()) as { data: Tweet } };
  }
  async function timeline(a: { token: string; platformUserId: string }, fields: string) {
    const res = await fetch(`${x}/2/users/${a.platformUserId}/tweets?tweet.fields=${fields}`, {
      headers: auth(a.token),
    });
    return ((await res.json()) as { data: Tweet[] }).data;
  }

  it('rewrites every link to t.co, with entities.urls at code-point offsets of the returned text', async () => {
    const a = await account('x');
    const text = `🚀 ${sandbox.uniqueText('launch')}: https://example.com/launch?ref=semel, details at example.org/notes (ok)`;
    const created = await tweet(a.token, text);
    expect(created.status).toBe(201);
    const [read] = await timeline(a, 'created_at,entities');
    expect(read!.id).toBe(created.body.data.id);
    expect(read!.text).not.toContain('example.com');
    expect(read!.text).toMatch(
      /^🚀 launch [0-9a-f]{8}: https:\/\/t\.co\/\w{10}, details at https:\/\/t\.co\/\w{10} \(ok\)$/,
    );
    expect(created.body.data.text).toBe(read!.text); // the create answer shows the t.co links too
    const urls = read!.entities!.urls;
    expect(urls.map((u) => [u.expanded_url, u.display_url])).toEqual([
      ['https://example.com/launch?ref=semel', 'example.com/launch?re…'],
      ['http://example.org/notes', 'example.org/notes'],
    ]);
    for (const u of urls) {
      expect(u.url).toMatch(/^https:\/\/t\.co\/\w{10}$/);
      expect(codePoints(read!.text, u.start, u.end)).toBe(u.url);
    }
    // The emoji is two UTF-16 units but one code point: offsets are code points.
    const utf16 = read!.text.indexOf('https://');
    expect(urls[0]!.start).toBe([...read!.text.slice(0, utf16)].length);
    expect(utf16).toBe(urls[0]!.start + 1);
    // The same links each time it is read, and by id too.
    const byId = (await (
      await fetch(`${x}/2/tweets/${read!.id}?tweet.fields=entities`, { headers: auth(a.token) })
    ).json()) as { data: Tweet };
    expect(byId.data.text).toBe(read!.text);
    expect(byId.data.entities).toEqual(read!.entities);
  });

  it('entities only when asked for (tweet.fields=entities), as X answers', async () => {
    const a = await account('x-nodedupe');
    await tweet(a.token, `${sandbox.uniqueText('plain')} https://example.com/x`);
    const [read] = await timeline(a, 'created_at');
    expect(read!.text).toMatch(/https:\/\/t\.co\/\w{10}$/);
    expect(read!.entities).toBeUndefined();
  });

  it('x-premium: a post over 280 reads back truncated with an ellipsis; note_tweet holds it all, only when asked', async () => {
    const a = await account('x-premium');
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const text = `${sandbox.uniqueText('long')} https://example.com/start ${words} see https://example.com/the-end`;
    expect(xWeightedLength(text)).toBeGreaterThan(280);
    expect((await tweet(a.token, text)).status).toBe(201);
    const [plain] = await timeline(a, 'created_at');
    expect(plain!.text.endsWith('…')).toBe(true);
    expect(xWeightedLength(plain!.text)).toBeLessThanOrEqual(280);
    const shownStart = plain!.text.slice(0, -1).replace(/https:\/\/t\.co\/\w{10}/, 'https://example.com/start');
    expect(text.startsWith(shownStart)).toBe(true);
    expect(text[shownStart.length]).toBe(' '); // cut at a word boundary
    expect(plain!.note_tweet).toBeUndefined();
    const [full] = await timeline(a, 'created_at,entities,note_tweet');
    expect(full!.text).toBe(plain!.text);
    // Entities of the shown text: the first link only (the last is past the cut); the note's: both.
    expect(full!.entities!.urls.map((u) => u.expanded_url)).toEqual(['https://example.com/start']);
    const note = full!.note_tweet!;
    expect(
      note.text.replace(/https:\/\/t\.co\/\w{10}/g, (_, offset: number) =>
        offset < 40 ? 'https://example.com/start' : 'https://example.com/the-end',
      ),
    ).toBe(text);
    expect(note.entities!.urls.map((u) => u.expanded_url)).toEqual([
      'https://example.com/start',
      'https://example.com/the-end',
    ]);
    for (const u of note.entities!.urls) expect(codePoints(note.text, u.start, u.end)).toBe(u.url);
    expect(note.entities!.urls[0]).toEqual(full!.entities!.urls[0]);
  });

  it('x-premium refuses identical text as x does (403 duplicate content)', async () => {
    const a = await account('x-premium');
    const text = sandbox.uniqueText('premium-dupe');
    const results = [await tweet(a.token, text), await tweet(a.token, text)];
    expect(results.map((r) => r.status)).toEqual([201, 403]);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(1);
  });

  it('x (not Premium) refuses a post over 280 with 400, as before', async () => {
    const a = await account('x');
    const text = `${sandbox.uniqueText('too long')} ${'word '.repeat(60)}`;
    const { status } = await tweet(a.token, text);
    expect(status).toBe(400);
    expect(await sandbox.copies(a.sandboxAccount.id)).toBe(0);
  });
});
