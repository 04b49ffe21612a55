import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export type FeedEntry = { guid?: string; link?: string; title: string; summary: string; published?: string };

/** An RSS 2.0 document of these items (the order as given: a feed may re-order them). */
export function rss(items: FeedEntry[], title = 'Test feed'): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>https://blog.example.com/</link><description>t</description>
${items
  .map(
    (i) =>
      `<item><title>${esc(i.title)}</title>${i.link ? `<link>${esc(i.link)}</link>` : ''}${
        i.guid ? `<guid isPermaLink="false">${esc(i.guid)}</guid>` : ''
      }<description>${esc(i.summary)}</description><pubDate>${i.published ?? 'Mon, 07 Dec 2026 09:00:00 GMT'}</pubDate></item>`,
  )
  .join('\n')}
</channel></rss>`;
}

/**
 * A feed on a free loopback port, reached as `localhost` (tests allow it with OUTBOUND_ALLOWED_HOSTS): serves
 * `state.body` with an ETag derived from it and a Last-Modified, answers 304 to a matching If-None-Match, records the
 * conditional headers of each request, and can hang (`hangMs`) or answer something huge (`bytes`).
 */
export async function startFeedServer() {
  const state = {
    body: rss([]),
    contentType: 'application/rss+xml; charset=utf-8',
    hangMs: 0,
    bytes: 0,
    requests: [] as { ifNoneMatch: string | null; ifModifiedSince: string | null; status: number }[],
  };
  const etagOf = (body: string) => `"${Buffer.from(body).length.toString(16)}-${hash(body)}"`;
  const server = http.createServer((req, res) => {
    const etag = etagOf(state.body);
    const ifNoneMatch = (req.headers['if-none-match'] as string | undefined) ?? null;
    const ifModifiedSince = (req.headers['if-modified-since'] as string | undefined) ?? null;
    const answer = () => {
      if (state.bytes > 0) {
        state.requests.push({ ifNoneMatch, ifModifiedSince, status: 200 });
        res.writeHead(200, { 'content-type': state.contentType });
        return res.end(Buffer.alloc(state.bytes, 0x20));
      }
      const status = ifNoneMatch === etag ? 304 : 200;
      state.requests.push({ ifNoneMatch, ifModifiedSince, status });
      res.writeHead(status, {
        etag,
        'last-modified': 'Mon, 07 Dec 2026 09:00:00 GMT',
        ...(status === 200 ? { 'content-type': state.contentType } : {}),
      });
      res.end(status === 200 ? state.body : undefined);
    };
    if (state.hangMs > 0) setTimeout(answer, state.hangMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://localhost:${port}/feed.xml`,
    ipUrl: `http://127.0.0.1:${port}/feed.xml`,
    state,
    close: () => server.close(),
  };
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}
