import { describe, expect, it } from 'vitest';
import { buildFacets, detectFacets, utf8Index } from './facets';

/** What a facet's byte range covers, read the way Bluesky reads it: as UTF-8 bytes of the text. */
const slice = (text: string, range: { byteStart: number; byteEnd: number }) =>
  Buffer.from(text, 'utf8').subarray(range.byteStart, range.byteEnd).toString('utf8');

describe('facet byte offsets (UTF-8, not UTF-16)', () => {
  it('counts emoji, skin tones, ZWJ sequences and accents in bytes', () => {
    expect(utf8Index('👋🏽', 4)).toBe(8); // two astral code points: 4 UTF-16 units, 8 bytes
    expect(utf8Index('é', 1)).toBe(2);
    expect(utf8Index('👩‍💻x', 5)).toBe(11); // 👩 ZWJ 💻: 4 + 3 + 4 bytes
  });

  it('a link after emoji: the range covers exactly the link', () => {
    const text = '👋🏽 see https://example.com/a?b=c, and more';
    const [link] = detectFacets(text);
    expect(link).toMatchObject({ type: 'link', uri: 'https://example.com/a?b=c', byteStart: 13 });
    expect(slice(text, link!)).toBe('https://example.com/a?b=c');
  });

  it('a mention after a family emoji and accented text: "@" included, trailing punctuation not', () => {
    const text = 'Café 👨‍👩‍👧 with @Alice.bsky.social!';
    const [mention] = detectFacets(text);
    expect(mention).toMatchObject({ type: 'mention', handle: 'alice.bsky.social' });
    expect(slice(text, mention!)).toBe('@Alice.bsky.social');
  });

  it('ignores what is not a handle or a link, and strips a closing parenthesis and full stop', () => {
    const text = 'mail me@example.com or @nodot or (see https://example.com/x).';
    const found = detectFacets(text);
    expect(found).toHaveLength(1);
    expect(slice(text, found[0]!)).toBe('https://example.com/x');
  });
});

describe('buildFacets', () => {
  it('links as they are; a resolved mention carries the DID; an unresolvable one stays plain text', async () => {
    const text = '🎉 @known.bsky.social and @ghost.bsky.social: https://semel.example/p';
    const asked: string[] = [];
    const facets = await buildFacets(text, async (handle) => {
      asked.push(handle);
      return handle === 'known.bsky.social' ? 'did:plc:known' : null;
    });
    expect(asked.sort()).toEqual(['ghost.bsky.social', 'known.bsky.social']);
    expect(facets).toHaveLength(2);
    expect(facets[0]!.features).toEqual([{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:known' }]);
    expect(slice(text, facets[0]!.index)).toBe('@known.bsky.social');
    expect(facets[1]!.features).toEqual([{ $type: 'app.bsky.richtext.facet#link', uri: 'https://semel.example/p' }]);
    expect(slice(text, facets[1]!.index)).toBe('https://semel.example/p');
  });

  it('looks each handle up once', async () => {
    let lookups = 0;
    await buildFacets('@a.bsky.social @a.bsky.social @A.bsky.social', async () => {
      lookups++;
      return 'did:plc:a';
    });
    expect(lookups).toBe(1);
  });
});
