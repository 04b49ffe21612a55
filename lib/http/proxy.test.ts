import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { config, proxy } from '@/proxy';

// The real proxy function (proxy.ts, Next 16's middleware), called with NextRequests as Next calls it.

/** Whether Next runs the proxy for a path: the matcher is a path-to-regexp source whose one group is a plain regex. */
const proxied = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));

const action = (path: string, headers: Record<string, string>) =>
  new NextRequest(`http://localhost:3000${path}`, {
    method: 'POST',
    headers: { 'next-action': '7f3a9c', 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: '[]',
  });

describe('21.13 a cross-site server action is refused by the proxy with 403, before Next answers 500', () => {
  it('21.13 Origin http://evil.example on a server action POST: 403 problem+json with the security headers', async () => {
    for (const path of ['/compose', '/request/abc123', '/approve/xyz']) {
      const response = await proxy(action(path, { origin: 'http://evil.example', host: 'localhost:3000' }));
      expect(response.status, path).toBe(403);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 403, title: 'Forbidden' });
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('21.13 a script-free form post from another site is refused too; behind a proxy X-Forwarded-Host decides', async () => {
    const form = new NextRequest('http://localhost:3000/request/abc', {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        host: 'localhost:3000',
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: '--x--',
    });
    expect((await proxy(form)).status).toBe(403);
    const forwarded = action('/request/abc', {
      origin: 'https://semel.example',
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'semel.example',
    });
    expect((await proxy(forwarded)).status).not.toBe(403);
    const spoofedHostOnly = action('/request/abc', {
      origin: 'https://semel.example',
      host: 'semel.example',
      'x-forwarded-host': 'evil.example',
    });
    expect((await proxy(spoofedHostOnly)).status).toBe(403);
  });

  it('21.13 the same origin passes on to Next (the page or action checks the rest)', async () => {
    const same = await proxy(action('/request/abc', { origin: 'http://localhost:3000', host: 'localhost:3000' }));
    expect(same.status).toBe(200);
    expect(same.headers.get('x-middleware-next')).toBe('1');
    // API routes check their own callers (the sandbox consent form compares Origin itself).
    const api = await proxy(action('/api/v1/posts', { origin: 'http://evil.example', host: 'localhost:3000' }));
    expect(api.status).not.toBe(403);
  });
});

describe('21.7 the proxy no longer skips every .png, .svg or .ico path', () => {
  it('21.7 image-looking paths go through the proxy; only Next’s build output skips it', () => {
    for (const path of ['/x.png', '/approve/abc.svg', '/favicon.ico', '/icon-192.png', '/evil/../a.ico'])
      expect(proxied(path), path).toBe(true);
    for (const path of ['/_next/static/chunks/main.js', '/_next/image']) expect(proxied(path), path).toBe(false);
  });

  it('21.7 such an answer carries the CSP, X-Frame-Options and nosniff; the public icons need no session', async () => {
    const response = await proxy(new NextRequest('http://localhost:3000/anything.png'));
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    for (const icon of ['/icon-192.png', '/icon.svg', '/apple-icon.png', '/favicon.ico']) {
      const answer = await proxy(new NextRequest(`http://localhost:3000${icon}`));
      expect(answer.headers.get('x-middleware-next'), icon).toBe('1');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('the trailing-slash redirect, done here instead of by Next (next.config.js skipTrailingSlashRedirect)', () => {
  it('/path/ is a 308 to /path everywhere but under /api/sandbox/, where TikTok’s slash-ended paths are taken as sent', async () => {
    const redirected = await proxy(new NextRequest('http://localhost:3000/compose/?x=1'));
    expect(redirected.status).toBe(308);
    expect(redirected.headers.get('location')).toBe('/compose?x=1');
    const api = await proxy(new NextRequest('http://localhost:3000/api/v1/posts/'));
    expect(api.headers.get('location')).toBe('/api/v1/posts');
    const tiktok = await proxy(
      new NextRequest('http://localhost:3000/api/sandbox/tiktok/v2/post/publish/creator_info/query/', {
        method: 'POST',
      }),
    );
    expect(tiktok.status).not.toBe(308);
    expect(tiktok.headers.get('location')).toBeNull();
    expect((await proxy(new NextRequest('http://localhost:3000/'))).status).not.toBe(308);
  });
});
