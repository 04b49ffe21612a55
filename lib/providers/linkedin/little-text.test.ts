import { describe, expect, it } from 'vitest';
import { readLittleText, writeLittleText } from '@/sandbox/dialects/linkedin/little';
import { LITTLE_RESERVED, fromLittleText, toLittleText } from './little-text';

// LinkedIn's little text format: the client escapes every reserved character (LinkedIn cuts a post at the
// first one it cannot parse); the sandbox reads it with its own, strict parser.

const TRICKY = [
  'Plain words, nothing to escape. Ünïcödé ✅ → done',
  'Prices (incl. VAT) [draft] {v2} <b> a|b @team *bold* _under_ ~strike~ back\\slash',
  'A #hashtag, #Zürich2026 and (#inParens) stay hashtags; a#mid and # alone do not',
  'snake_case_name and #snake_case tags',
  'Mention-looking @[Acme](urn:li:organization:1) is plain text here',
  '{hashtag|#|fake} template-looking text',
  '\\#already escaped? no: a literal backslash and a hash',
  'line one\nline two\n\n#closing',
];

describe('little text: what the client sends', () => {
  it('escapes every reserved character with a backslash', () => {
    for (const char of LITTLE_RESERVED) expect(toLittleText(`a${char}b`)).toBe(`a\\${char}b`);
    expect(toLittleText('(1) [2] {3}')).toBe('\\(1\\) \\[2\\] \\{3\\}');
  });

  it('turns a hashtag at a word start into the HashtagTemplate, and escapes other #', () => {
    expect(toLittleText('#launch day')).toBe('{hashtag|#|launch} day');
    expect(toLittleText('Go #Zürich!')).toBe('Go {hashtag|#|Zürich}!');
    expect(toLittleText('(#tag)')).toBe('\\({hashtag|#|tag}\\)');
    expect(toLittleText('issue#12 and # 3')).toBe('issue\\#12 and \\# 3');
    expect(toLittleText('#snake_case')).toBe('{hashtag|#|snake}\\_case');
  });

  it('round-trips through the sandbox’s strict parser unchanged (nothing cut off)', () => {
    for (const text of TRICKY) expect(readLittleText(toLittleText(text))).toBe(text);
  });

  it('the strict parser cuts unescaped text at the first reserved character, as LinkedIn does', () => {
    expect(readLittleText('Launch (beta) today')).toBe('Launch ');
    expect(readLittleText('a_b')).toBe('a');
    expect(readLittleText('Hi #team and @[Acme](urn:li:organization:1)!')).toBe('Hi #team and Acme!');
  });
});

describe('little text: what the client reads back', () => {
  it('decodes LinkedIn’s commentary to the text people see', () => {
    expect(fromLittleText('Prices \\(incl. VAT\\) \\#1')).toBe('Prices (incl. VAT) #1');
    expect(fromLittleText('{hashtag|\\#|launch} and {hashtag|#|day}')).toBe('#launch and #day');
    expect(fromLittleText('Hello @[Acme Corp](urn:li:organization:1234)')).toBe('Hello Acme Corp');
    expect(fromLittleText('a lone \\ backslash and {odd}')).toBe('a lone \\ backslash and {odd}');
  });

  it('reads every text back from both encodings (ours and the sandbox’s all-escaped one)', () => {
    for (const text of TRICKY) {
      expect(fromLittleText(toLittleText(text))).toBe(text);
      expect(fromLittleText(writeLittleText(text))).toBe(text);
    }
  });
});
