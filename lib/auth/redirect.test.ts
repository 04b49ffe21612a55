import { describe, expect, it } from 'vitest';
import { redirectAfterAuth, safeCallbackPath } from './redirect';

const ORIGIN = 'https://semel.example';

describe('callbackUrl: only same-origin paths (a row per case)', () => {
  const accepted: [string, string][] = [
    ['/accounts', '/accounts'],
    ['/posts/1?tab=history#attempts', '/posts/1?tab=history#attempts'],
    ['/queue', '/queue'],
    ['https://semel.example/review', '/review'],
    ['/%09/evil.example', '/%09/evil.example'], // still an encoded path segment on this site
  ];
  for (const [value, path] of accepted)
    it(`accepts ${JSON.stringify(value)}`, () => expect(safeCallbackPath(value, ORIGIN)).toBe(path));

  const refused = [
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\u0000/evil.example',
    '//evil.example',
    '//evil.example/queue',
    '/.//evil.example',
    'https://evil.example/queue',
    'https://semel.example.evil.example/queue',
    'http://semel.example/queue',
    'javascript:alert(1)',
    'evil.example',
    '',
  ];
  for (const value of refused)
    it(`refuses ${JSON.stringify(value)}`, () => expect(safeCallbackPath(value, ORIGIN)).toBeNull());

  it('refuses anything that is not a string', () => {
    for (const value of [undefined, null, 42, ['/queue'], {}]) expect(safeCallbackPath(value, ORIGIN)).toBeNull();
  });
});

describe("next-auth's redirect callback", () => {
  it('keeps a same-origin path and sends everything else to the queue', () => {
    expect(redirectAfterAuth({ url: '/accounts', baseUrl: ORIGIN })).toBe('https://semel.example/accounts');
    expect(redirectAfterAuth({ url: 'https://semel.example/review', baseUrl: ORIGIN })).toBe(
      'https://semel.example/review',
    );
    for (const url of [
      '/\\evil.example',
      '/\t/evil.example',
      '//evil.example',
      'https://evil.example/',
      `${ORIGIN}/\\evil.example`,
    ]) {
      expect(new URL(redirectAfterAuth({ url, baseUrl: ORIGIN })).origin).toBe(ORIGIN);
      expect(redirectAfterAuth({ url, baseUrl: ORIGIN })).toBe('https://semel.example/queue');
    }
  });
});
