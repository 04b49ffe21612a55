import { describe, expect, it } from 'vitest';
import { compareWithPlatform, findMatchingPosts, normaliseForMatch } from './match';
import { htmlToText, reduceMarkup } from './normalise';

const at = (s: string) => new Date(`2026-11-29T10:${s}Z`);
const window = { windowStart: at('00:00'), windowEnd: at('10:00') };
const wanted = (text: string) => ({ text, kind: 'post' as const, inReplyTo: null, ...window });
const post = (id: string, text: string, extra: { source?: string } = {}) => ({
  id,
  text,
  createdAt: at('01:00'),
  inReplyTo: null,
  ...extra,
});
const answer = (ours: string, theirs: string, extra: { source?: string } = {}) => {
  const { same, similar } = compareWithPlatform([post('1', theirs, extra)], wanted(ours));
  return same.length ? 'same' : similar.length ? 'similar' : 'absent';
};

describe('reconciliation matching', () => {
  it('normalises Unicode, whitespace, links and entities', () => {
    expect(normaliseForMatch('Cafe\u0301  launch\n\nday')).toBe('Café launch day');
    expect(normaliseForMatch('Read https://example.com/a?b=1 now')).toBe(
      normaliseForMatch('Read https://t.co/xYz123 now'),
    );
    expect(normaliseForMatch('Fish &amp; chips')).toBe('Fish & chips');
  });

  it('finds the same text inside the window only', () => {
    const posts = [
      { id: '1', text: 'Hello world', createdAt: at('30:00'), inReplyTo: null },
      { id: '2', text: 'Hello  world', createdAt: at('05:00'), inReplyTo: null },
    ];
    expect(findMatchingPosts(posts, wanted('Hello world')).map((p) => p.id)).toEqual(['2']);
    expect(findMatchingPosts(posts, wanted('Hello there'))).toEqual([]);
  });

  it('matches replies on their parent too (a link or an id)', () => {
    const posts = [
      { id: '1', text: 'Thanks!', createdAt: at('01:00'), inReplyTo: '99' },
      { id: '2', text: 'Thanks!', createdAt: at('02:00'), inReplyTo: '42' },
    ];
    expect(
      findMatchingPosts(posts, {
        text: 'Thanks!',
        kind: 'reply',
        inReplyTo: 'https://x.com/a/status/42',
        ...window,
      }).map((p) => p.id),
    ).toEqual(['2']);
    expect(findMatchingPosts(posts, { text: 'Thanks!', kind: 'reply', inReplyTo: '7', ...window })).toEqual([]);
  });

  it("a reply is never a copy of a post, however alike: a thread's third part beside its first (chaos, seed 3688058917)", () => {
    const posts = [
      { id: '1', text: 'chaos ee9a82 #40 part 1/3', createdAt: at('01:00'), inReplyTo: null },
      { id: '2', text: 'chaos ee9a82 #40 part 2/3', createdAt: at('01:01'), inReplyTo: '1' },
      { id: '3', text: 'chaos ee9a82 #40 part 3/3', createdAt: at('01:02'), inReplyTo: '2' },
    ];
    // 5 of 6 words alike: without the rule, part 3 counted as a late copy of part 1 and sent it to review.
    expect(compareWithPlatform(posts, wanted('chaos ee9a82 #40 part 1/3'))).toEqual({
      same: [expect.objectContaining({ id: '1' })],
      similar: [],
    });
    expect(compareWithPlatform(posts.slice(1), wanted('chaos ee9a82 #40 part 1/3'))).toEqual({ same: [], similar: [] });
  });

  it('returns every copy in the window, oldest first, and a near one as similar (copies are counted, not hidden)', () => {
    const posts = [
      { id: '3', text: 'Launch day', createdAt: at('04:00'), inReplyTo: null },
      { id: '1', text: 'Launch  day', createdAt: at('01:00'), inReplyTo: null },
      { id: '2', text: 'Launch day!', createdAt: at('02:00'), inReplyTo: null },
    ];
    const { same, similar } = compareWithPlatform(posts, wanted('Launch day'));
    expect(same.map((p) => p.id)).toEqual(['1', '3']);
    expect(similar.map((p) => p.id)).toEqual(['2']);
  });
});

describe('a read that rendering cannot fool (Markdown servers: Hollo, Akkoma, Pleroma, GoToSocial)', () => {
  // What such a server answers in `content` for each construct; every one was "not found" for the old matcher.
  const rendered: [string, string, string][] = [
    ['emphasis', '**Launch** _today_', '<p><strong>Launch</strong> <em>today</em></p>'],
    ['quote', '> Stay curious\nsaid the sign', '<blockquote><p>Stay curious<br>said the sign</p></blockquote>'],
    ['list', 'Today:\n- coffee\n- code', '<p>Today:</p><ul><li>coffee</li><li>code</li></ul>'],
    ['heading', '# Release notes\nAll fixed', '<h1>Release notes</h1><p>All fixed</p>'],
    ['code', 'Run `npm test` first', '<p>Run <code>npm test</code> first</p>'],
    ['strikethrough', 'Price ~~20~~ 15', '<p>Price <del>20</del> 15</p>'],
    [
      'link syntax',
      'Read [the notes](https://example.com/notes) now',
      '<p>Read <a href="https://example.com/notes">the notes</a> now</p>',
    ],
    [
      'autolinked mention',
      'Thanks @alice@example.social for the help',
      '<p>Thanks <span class="h-card"><a href="https://example.social/@alice" class="u-url mention">@<span>alice</span></a></span> for the help</p>',
    ],
    [
      'hashtag',
      'Big day #launch',
      '<p>Big day <a href="https://h.example/tags/launch" class="mention hashtag" rel="tag">#<span>launch</span></a></p>',
    ],
    [
      'Mastodon link display',
      'See https://example.com/a/very/long/path',
      '<p>See <a href="https://example.com/a/very/long/path"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very</span><span class="invisible">/long/path</span></a></p>',
    ],
    [
      'custom emoji as an image',
      'Party :blobcat:',
      '<p>Party <img class="emoji" alt=":blobcat:" src="https://h.example/e.png"></p>',
    ],
    ['entities', 'Fish & chips < 5 "quid"', '<p>Fish &amp; chips &lt; 5 &quot;quid&quot;</p>'],
  ];

  it.each(rendered)('%s: the rendered HTML reduces to the same as ours', (_name, ours, html) => {
    expect(answer(ours, htmlToText(html))).toBe('same');
  });

  it("the stored source (Mastodon's /statuses/:id/source) settles it whatever the rendering", () => {
    const { same } = compareWithPlatform(
      [post('1', 'Launch today', { source: '**Launch** _today_' })],
      wanted('**Launch** _today_'),
    );
    expect(same.map((p) => [p.id, p.why])).toEqual([['1', 'source']]);
  });

  it('a rendering we do not know is similar (never absent), so it blocks a resend', () => {
    // A server that renders "_x_" as "x" but also typographic quotes and drops a word-joiner: not equal, close.
    expect(answer('**Launch** _today_ at "noon", everyone', 'Launch today at “noon” everyone!')).toBe('similar');
    expect(answer('Coffee and code on a Monday morning', 'Coffee and code on a Monday morning ☕')).toBe('similar');
    expect(answer('Coffee and code on a Monday morning', 'Coffee, and code, on Monday morning')).toBe('similar');
  });

  it('X: t.co links compare as links, a media link does not hide our text, a cut text is similar', () => {
    expect(answer('Read https://example.com/a?b=1 now', 'Read https://t.co/xYz1234567 now')).toBe('same');
    // X links a bare domain as t.co too (put back as http://example.com/launch from its entity).
    expect(answer('Notes at example.com/launch today', 'Notes at https://t.co/AbCdEf1234 today')).toBe('same');
    expect(answer('Notes at example.com/launch today', 'Notes at http://example.com/launch today')).toBe('same');
    const long = 'A long announcement '.repeat(20).trim();
    expect(answer(long, `${long.slice(0, 120)}… https://t.co/AbCdEf1234`)).toBe('similar');
    expect(answer(long, `${long.slice(0, 120)}…`)).toBe('similar');
  });

  it('different posts stay absent', () => {
    // Starting like ours is not a cut of ours: a cut ends in an ellipsis.
    expect(answer('weak run plain/mastodon plain slow #12', 'weak run plain/mastodon plain slow #1')).toBe('absent');
    expect(answer('Good morning! Day 1 of the launch week', 'Good morning! Day 2 of the sale')).toBe('absent');
    expect(answer('Hello world', 'Goodbye moon')).toBe('absent');
    expect(reduceMarkup('snake_case_name stays')).toBe(reduceMarkup('snake_case_name stays'));
  });
});
