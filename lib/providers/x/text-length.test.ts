import { describe, expect, it } from 'vitest';
import { PROVIDER_META } from '../catalog';
import { findXUrls, xWeightedLength } from './text-length';

// Expected figures follow twitter-text's config v3 (scale 100, default weight 200, URLs 23, emoji parsing on).
describe("X's weighted count (countText of the X entry)", () => {
  it.each([
    ['plain Latin counts 1 a character', 'hello world', 11],
    ['accents count 1, composed or not (NFC)', 'cafe\u0301 café', 9],
    ['CJK counts 2 a character', '日本語', 6],
    ['a character outside the BMP counts 2', '𝗼𝘁', 4],
    ['general punctuation (U+2010–U+201F) counts 1', '“quoted” — x', 12],
    ['an emoji counts 2', '😀', 2],
    ['a family (ZWJ sequence) is one emoji', '👨‍👩‍👧', 2],
    ['a flag is one emoji', '🇩🇪', 2],
    ['a skin tone modifier belongs to its emoji', '👍🏽', 2],
    ['a heart with VS16 is one emoji', '❤️', 2],
    ['a keycap is one emoji', '1️⃣', 2],
    ['a bare © stays light', '©', 1],
  ])('%s', (_what, text, expected) => {
    expect(xWeightedLength(text)).toBe(expected);
  });

  it.each([
    ['a long URL counts 23', 'https://example.com/a/very/long/path/that/is/much/longer/than/twenty-three', 23],
    ['a short URL counts 23 too', 'see http://x.co', 4 + 23],
    ['two URLs count 23 each', 'https://a.example.com and https://b.example.com/x', 23 + 5 + 23],
    ['a bare domain with a generic TLD is a URL', 'example.com', 23],
    ['a bare name.cc is not linked', 'example.de', 10],
    ['… unless it has a subdomain', 'www.example.de', 23],
    ['… or a path', 'example.de/about', 23],
    ['… or is .co / .tv', 'example.co', 23],
    ['the full stop after a URL is text', 'Visit https://example.com.', 6 + 23 + 1],
    ['balanced parentheses stay in the URL', '(see https://en.wikipedia.org/wiki/Foo_(bar))', 5 + 23 + 1],
    ['an email address is not a URL', 'a@example.com', 13],
    ['a file name is not a URL', 'index.html and notes.md', 23],
  ])('%s', (_what, text, expected) => {
    expect(xWeightedLength(text)).toBe(expected);
  });

  it('finds URLs by offsets (what the composer preview shortens)', () => {
    const text = 'Read https://example.com/post, then example.org!';
    expect(findXUrls(text).map(([s, e]) => text.slice(s, e))).toEqual(['https://example.com/post', 'example.org']);
  });

  it('the limit is 280 weighted: a URL lets a long link through, CJK halves the room', () => {
    const meta = PROVIDER_META.x;
    expect(meta.countText).toBe(xWeightedLength);
    const url = `https://example.com/${'p'.repeat(200)}`;
    expect(meta.countText(`${'a'.repeat(256)} ${url}`)).toBe(280); // 480 code points, fits
    expect(meta.countText(`${'a'.repeat(257)} ${url}`)).toBe(281);
    expect(meta.countText('字'.repeat(140))).toBe(280);
    expect(meta.countText('字'.repeat(141))).toBe(282);
  });
});
