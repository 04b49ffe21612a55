import { describe, expect, it } from 'vitest';
import { appOrigin, resolveBaseUrl } from './base-url';
import { errorCode } from '@/lib/net/send';

describe('base URL resolution', () => {
  it('a relative (sandbox) base URL resolves against the app’s origin', () => {
    expect(resolveBaseUrl('/api/sandbox/x', 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/api/sandbox/x');
  });

  it('an absolute base URL is kept, without a trailing slash', () => {
    expect(resolveBaseUrl('https://mastodon.social/', 'http://127.0.0.1:3000')).toBe('https://mastodon.social');
  });

  it('the origin is loopback on PORT (set by next start/dev), else NEXTAUTH_URL’s origin, else port 3000', () => {
    expect(appOrigin({ PORT: '3202', NEXTAUTH_URL: 'https://semel.example.com' } as unknown as NodeJS.ProcessEnv)).toBe(
      'http://127.0.0.1:3202',
    );
    expect(appOrigin({ NEXTAUTH_URL: 'https://semel.example.com/app' } as unknown as NodeJS.ProcessEnv)).toBe(
      'https://semel.example.com',
    );
    expect(appOrigin({} as unknown as NodeJS.ProcessEnv)).toBe('http://127.0.0.1:3000');
  });
});

describe('errorCode', () => {
  it('finds the code along undici’s cause chain and inside aggregate errors, ignoring numeric DOMException codes', () => {
    expect(
      errorCode(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })),
    ).toBe('ECONNREFUSED');
    expect(
      errorCode(
        new TypeError('fetch failed', {
          cause: new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]),
        }),
      ),
    ).toBe('ECONNREFUSED');
    expect(errorCode(Object.assign(new Error('timeout'), { code: 23 }))).toBeNull();
  });
});
