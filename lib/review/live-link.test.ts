import { describe, expect, it } from 'vitest';
import { parseLiveLink } from './live-link';

describe('parseLiveLink', () => {
  it('takes the id from a link or a bare id', () => {
    expect(parseLiveLink('https://x.com/brand/status/1790000000000000000')).toEqual({
      ok: true,
      externalId: '1790000000000000000',
      url: 'https://x.com/brand/status/1790000000000000000',
    });
    expect(parseLiveLink(' 12345 ')).toEqual({ ok: true, externalId: '12345', url: null });
  });
  it('refuses empty and odd input', () => {
    expect(parseLiveLink('').ok).toBe(false);
    expect(parseLiveLink('https://x.com/').ok).toBe(false);
    expect(parseLiveLink('not an id!').ok).toBe(false);
  });
});
