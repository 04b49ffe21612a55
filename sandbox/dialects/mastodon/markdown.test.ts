import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startMemoryTestSandbox, startTestSandbox } from '@/testing/sandbox';
import type { Profile } from '@/sandbox/store/types';

// mastodon-markdown renders a status as Hollo does (docs/sandbox.md#profiles): what a read-back sees in `content` is
// HTML made from Markdown, not the text sent; `/source` answers the original. Real HTTP on the standalone server, both
// stores.

const backends = [
  { name: 'Postgres store', start: () => startTestSandbox() },
  { name: 'memory store', start: () => startMemoryTestSandbox() },
];

const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

describe.each(backends)('mastodon-markdown and /source ($name)', async ({ start }) => {
  const sandbox = await start();
  const m = `${sandbox.url}/api/sandbox/mastodon`;

  async function account(profile: Profile) {
    const a = await sandbox.connectAccount('mastodon');
    await sandbox.setFaults(a.sandboxAccount.id, { profile });
    return a;
  }
  async function post(token: string, text: string, key?: string) {
    const res = await fetch(`${m}/api/v1/statuses`, {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ status: text }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const show = async (token: string, id: string) =>
    (await (await fetch(`${m}/api/v1/statuses/${id}`, { headers: auth(token) })).json()) as Record<string, unknown>;

  it('renders each Markdown construct to HTML, in the answer, by id and in the account’s statuses', async () => {
    const a = await account('mastodon-markdown');
    const cases: [string, string][] = [
      ['**Launch** _today_', '<p><strong>Launch</strong> <em>today</em></p>'],
      ['first paragraph\n\nsecond one', '<p>first paragraph</p>\n<p>second one</p>'],
      ['> quoted words', '<blockquote>\n<p>quoted words</p>\n</blockquote>'],
      ['- one item\n- another', '<ul>\n<li>one item</li>\n<li>another</li>\n</ul>'],
      ['# Big news', '<h1>Big news</h1>'],
      ['run `npm ci` first', '<p>run <code>npm ci</code> first</p>'],
      [
        'read https://example.com/a/very/long/path/that/goes/on?x=1 now',
        '<p>read <a href="https://example.com/a/very/long/path/that/goes/on?x=1" target="_blank" ' +
          'rel="nofollow noopener" translate="no"><span class="invisible">https://</span>' +
          '<span class="ellipsis">example.com/a/very/long/path/t</span><span class="invisible">hat/goes/on?x=1</span>' +
          '</a> now</p>',
      ],
      [
        'hello @ann@social.example',
        '<p>hello <span class="h-card" translate="no"><a href="https://social.example/@ann" class="u-url mention">' +
          '@<span>ann</span></a></span></p>',
      ],
      ['we #Launch', `<p>we <a href="${m}/tags/launch" class="mention hashtag" rel="tag">#<span>Launch</span></a></p>`],
      ['party :blobcat: time', '<p>party :blobcat: time</p>'],
      ['a <b>tag</b> & more', '<p>a &lt;b&gt;tag&lt;/b&gt; &amp; more</p>'],
    ];
    for (const [text, html] of cases) {
      const created = await post(a.token, `${text}`);
      expect(created.status).toBe(200);
      expect(created.body.content).toBe(html);
      expect((await show(a.token, String(created.body.id))).content).toBe(html);
    }
    const listed = (await (
      await fetch(`${m}/api/v1/accounts/${a.platformUserId}/statuses?limit=40`, { headers: auth(a.token) })
    ).json()) as Record<string, unknown>[];
    expect(listed.map((s) => s.content).reverse()).toEqual(cases.map(([, html]) => html));
  });

  it('lists mentions, hashtags and custom emoji as Mastodon does (the emoji kept as :shortcode: in content)', async () => {
    const a = await account('mastodon-markdown');
    const { body } = await post(a.token, 'hi @ann@social.example, #Launch :blobcat: :not_ours:');
    expect(body.mentions).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        username: 'ann',
        acct: 'ann@social.example',
        url: 'https://social.example/@ann',
      },
    ]);
    expect(body.tags).toEqual([{ name: 'launch', url: `${m}/tags/launch` }]);
    expect(body.emojis).toEqual([
      {
        shortcode: 'blobcat',
        url: `${m}/emoji/blobcat.png`,
        static_url: `${m}/emoji/blobcat.png`,
        visible_in_picker: true,
      },
    ]);
    expect(String(body.content)).toContain(':blobcat: :not_ours:');
  });

  it('the product’s read-back sees the rendered text, not what it sent; /source answers the original', async () => {
    const a = await account('mastodon-markdown');
    const text = `**Launch** _today_ ${randomUUID().slice(0, 6)} with @ann@social.example\n\n- item`;
    const { body } = await post(a.token, text);
    const [seen] = await a.client.listRecent({ since: new Date(Date.now() - 60_000), timeoutMs: 5_000 });
    expect(seen!.id).toBe(body.id);
    expect(seen!.text).not.toContain('**');
    expect(seen!.text).not.toContain('@ann@social.example');
    const source = await fetch(`${m}/api/v1/statuses/${body.id}/source`, { headers: auth(a.token) });
    expect(source.status).toBe(200);
    expect(await source.json()).toEqual({ id: body.id, text, spoiler_text: '' });
  });

  it('ignores Idempotency-Key: a resend with the same key is a second status', async () => {
    const a = await account('mastodon-markdown');
    const text = sandbox.uniqueText('md-key');
    const key = randomUUID();
    const [first, second] = [await post(a.token, text, key), await post(a.token, text, key)];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await sandbox.copiesOfText(a.sandboxAccount.id, text)).toBe(2);
  });

  it.each(['mastodon-modern', 'mastodon-legacy', 'mastodon-nokey', 'plain'] as const)(
    '/source on %s: the owner’s token only (401 without, 404 for another account or a deleted status)',
    async (profile) => {
      const [owner, other] = [await account(profile), await account(profile)];
      const text = `${sandbox.uniqueText('source')} **kept** as sent`;
      const { body } = await post(owner.token, text);
      const source = (token?: string) => fetch(`${m}/api/v1/statuses/${body.id}/source`, { headers: auth(token) });
      expect(await (await source(owner.token)).json()).toEqual({ id: body.id, text, spoiler_text: '' });
      expect((await source()).status).toBe(401);
      const foreign = await source(other.token);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual({ error: 'Record not found' });
      // The other profiles do not render Markdown: the asterisks are in the content as sent.
      expect(String(body.content)).toContain('**kept**');
      await fetch(`${m}/api/v1/statuses/${body.id}`, { method: 'DELETE', headers: auth(owner.token) });
      expect((await source(owner.token)).status).toBe(404);
    },
  );
});
