import { describe, expect, it } from 'vitest';
import { findMatchingPosts, normaliseForMatch } from './match';

const at = (s: string) => new Date(`2026-11-29T10:${s}Z`);
const window = { windowStart: at('00:00'), windowEnd: at('10:00') };

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
    expect(
      findMatchingPosts(posts, { text: 'Hello world', kind: 'post', inReplyTo: null, ...window }).map((p) => p.id),
    ).toEqual(['2']);
    expect(findMatchingPosts(posts, { text: 'Hello there', kind: 'post', inReplyTo: null, ...window })).toEqual([]);
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

  it('returns every copy in the window, oldest first (copies are counted, not hidden)', () => {
    const posts = [
      { id: '3', text: 'Launch day', createdAt: at('04:00'), inReplyTo: null },
      { id: '1', text: 'Launch  day', createdAt: at('01:00'), inReplyTo: null },
      { id: '2', text: 'Launch day!', createdAt: at('02:00'), inReplyTo: null },
    ];
    expect(
      findMatchingPosts(posts, { text: 'Launch day', kind: 'post', inReplyTo: null, ...window }).map((p) => p.id),
    ).toEqual(['1', '3']);
  });
});
