import { guardedGet } from '@/lib/net/guarded-get';

export type FeedFetch =
  | { kind: 'not_modified' }
  | { kind: 'ok'; body: string; contentType: string | null; etag: string | null; lastModified: string | null }
  | { kind: 'error'; reason: string };

/** A poll's limits: the whole GET (connect to last byte), and the largest feed read (a bigger one is refused). */
export const FEED_LIMITS = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/**
 * One GET of a feed someone typed: through the outbound guard (public addresses only, unless OUTBOUND_ALLOWED_HOSTS
 * names the host; redirects never followed), within a time and a size limit, and conditional (`If-None-Match`,
 * `If-Modified-Since`) so an unchanged feed answers 304 with no body.
 */
export async function fetchFeed(
  url: string,
  cache: { etag: string | null; lastModified: string | null },
  limits: { timeoutMs: number; maxBytes: number } = FEED_LIMITS,
): Promise<FeedFetch> {
  const answer = await guardedGet(url, {
    ...limits,
    headers: {
      accept:
        'application/rss+xml, application/atom+xml, application/feed+json, application/json, application/xml, text/xml;q=0.9, */*;q=0.5',
      'user-agent': 'Semel-Feeds/1',
      ...(cache.etag ? { 'if-none-match': cache.etag } : {}),
      ...(cache.lastModified ? { 'if-modified-since': cache.lastModified } : {}),
    },
  });
  if (!answer.ok)
    return {
      kind: 'error',
      reason: {
        refused:
          'Not fetched: the address is not public (an admin may allow it with OUTBOUND_ALLOWED_HOSTS), or not http(s)',
        too_large: `The feed is larger than ${limits.maxBytes / 1024 / 1024} MB`,
        status: `The feed answered HTTP ${answer.status ?? '?'}${answer.status && answer.status >= 300 && answer.status < 400 ? ' (a redirect: give its new URL)' : ''}`,
        network: 'The feed could not be reached in time',
      }[answer.reason],
    };
  if (answer.status === 304) return { kind: 'not_modified' };
  return {
    kind: 'ok',
    body: new TextDecoder().decode(answer.bytes),
    contentType: answer.contentType,
    etag: header(answer.headers.etag),
    lastModified: header(answer.headers['last-modified']),
  };
}
