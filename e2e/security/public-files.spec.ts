import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// Without a session: the files a browser or a crawler fetches before anyone signs in.
test('robots.txt, the icons and the manifest are served without a session; a dashboard page is not', async ({
  request,
}) => {
  const robots = await request.get('/robots.txt', { maxRedirects: 0 });
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toContain('text/plain');
  expect(await robots.text()).toBe(readFileSync('public/robots.txt', 'utf8'));
  expect(await robots.text()).toMatch(/^User-agent: \*\nDisallow: \/\n$/);

  for (const [path, type] of [
    ['/icon.svg', 'image/svg+xml'],
    ['/icon-192.png', 'image/png'],
    ['/icon-512.png', 'image/png'],
    ['/apple-icon.png', 'image/png'],
    ['/favicon.ico', 'image/x-icon'],
  ] as const) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type'], path).toContain(type);
    expect((await response.body()).equals(readFileSync(`public${path}`)), path).toBe(true);
  }

  const manifest = await request.get('/manifest.webmanifest', { maxRedirects: 0 });
  expect(manifest.status()).toBe(200);
  const icons = ((await manifest.json()) as { icons: { src: string; sizes: string }[] }).icons;
  expect(icons.map((i) => `${i.src} ${i.sizes}`)).toEqual(
    expect.arrayContaining(['/icon-192.png 192x192', '/icon-512.png 512x512']),
  );

  // The gate still holds: the same request to a dashboard page is sent to sign in.
  const queue = await request.get('/queue', { maxRedirects: 0 });
  expect(queue.status()).toBe(307);
  expect(queue.headers()['location']).toContain('/signin');
});

test('every page links the icons', async ({ request }) => {
  const html = await (await request.get('/signin')).text();
  expect(html).toContain('<link rel="icon" href="/icon.svg" type="image/svg+xml"');
  expect(html).toContain('<link rel="apple-touch-icon" href="/apple-icon.png" sizes="180x180"');
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
});
