import { describe, expect, it } from 'vitest';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { characterCount } from '@/sandbox/http/request';
import { graphemeLength } from './bluesky/records';
import { facebookMessageLength } from './facebook/text-length';
import { instagramCaptionLength } from './instagram/text-length';
import { threadsLength } from './threads/text-length';
import { tiktokCaptionLength } from './tiktok/text-length';
import { weightedLength } from './x/text';
import { youtubeDescriptionLength } from './youtube/text-length';

// Each dialect counts text by its own reading of the network's rules, apart from the client's counter (the
// composer's and the API's, PROVIDER_META[p].countText): on every fixture the two must agree, or one of them is
// wrong about the network, and a post the product lets through would be refused (or the other way round).
const DIALECT_COUNTERS: Record<ProviderName, (text: string) => number> = {
  x: weightedLength,
  mastodon: characterCount,
  bluesky: graphemeLength,
  linkedin: characterCount,
  threads: threadsLength,
  instagram: instagramCaptionLength,
  tiktok: tiktokCaptionLength,
  facebook: facebookMessageLength,
  youtube: youtubeDescriptionLength,
};

const FIXTURES: [string, string][] = [
  ['ASCII', 'Hello, world! Shipping on Tuesday.'],
  ['empty', ''],
  ['Latin with accents (precomposed)', 'Café crème, naïve façade'],
  ['combining acute (NFD e + U+0301)', 'Cafe\u0301 cre\u0300me'],
  ['CJK', '今日は良い天気ですね'],
  ['Hangul', '안녕하세요 세계'],
  ['Arabic', 'مرحبا بالعالم'],
  ['curly quotes and dashes (light range U+2010–U+201F)', '“quoted” — ‘single’ – dash…'],
  ['emoji', 'Launch day 🚀🎉'],
  ['emoji with skin tone', 'Wave 👋🏽'],
  ['ZWJ family', 'Family 👨‍👩‍👧‍👦'],
  ['ZWJ profession', 'Coder 🧑🏿‍💻 at work'],
  ['flag', 'Bonjour 🇫🇷'],
  ['keycap', 'Press 1️⃣'],
  ['text-style symbol ©', '© 2026 Semel'],
  ['heart with VS16', 'Love ❤️'],
  ['URL with scheme', 'Read https://example.com/a/very/long/path?with=query&and=more#fragment today'],
  ['URL without scheme', 'Read example.com/docs today'],
  ['bare domain', 'Visit semel.dev now'],
  ['two URLs', 'https://a.example.com and http://b.example.org/x'],
  ['URL then punctuation', 'See https://example.com/page.'],
  ['URL in parentheses', '(see https://example.com/wiki/Foo_(bar))'],
  ['handle and hashtag', '@someone #launch $SEML'],
  ['not a link: word.word', 'version 1.2 and file.unknownext'],
  ['newlines and tabs', 'line one\nline two\n\tindented'],
  ['mixed', 'Déjà vu 🚀 今日 https://example.com 👨‍👩‍👧'],
  ['long Latin', 'a'.repeat(300)],
  ['long CJK', '字'.repeat(150)],
];

describe('dialect text counters agree with the clients', () => {
  for (const provider of Object.keys(DIALECT_COUNTERS) as ProviderName[]) {
    it.each(FIXTURES)(`${provider}: %s`, (_name, text) => {
      expect(DIALECT_COUNTERS[provider](text)).toBe(PROVIDER_META[provider].countText(text));
    });
  }

  it('covers every network', () => {
    expect(Object.keys(DIALECT_COUNTERS).sort()).toEqual(Object.keys(PROVIDER_META).sort());
  });
});
