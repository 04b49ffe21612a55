import { createHash } from 'node:crypto';

/** Query parameters that track a click rather than name a page (dropped before two links are compared). */
const TRACKING = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src)$/i;

/**
 * A GUID or link as a feed may tweak it without meaning another item: `http`/`https`, `www.`, the case of the scheme
 * and host, a trailing slash, tracking parameters and the order of the other parameters do not count. The path, the
 * query's values and the fragment do (`/watch/AbC` and `/watch/aBc` are two videos, `#item-1` and `#item-2` two items
 * of one page). A GUID that is not an http(s) URL is compared as the feed gives it, trimmed.
 */
export function normaliseId(value: string | null | undefined): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return raw;
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  // URL already lower-cases the scheme and the host; the rest is kept as written.
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.replace(/\/+$/, '') || '';
  return `${host}${url.port ? `:${url.port}` : ''}${path}${query ? `?${query}` : ''}${url.hash}`;
}

/**
 * The item's words (title and summary, markup and spacing dropped): the same content under a new GUID and link. Null
 * when it has none (a feed of bare links): no words say that two items are one.
 */
export function contentHash(title: string, summary: string): string | null {
  const words = `${title}\n${summary}`
    .replace(/<[^>]*>/g, ' ')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return words ? createHash('sha256').update(words).digest('hex') : null;
}
