import { createHash } from 'node:crypto';

/** Query parameters that track a click rather than name a page (dropped before two links are compared). */
const TRACKING = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src)$/i;

/**
 * A GUID or link as a feed may tweak it without meaning another item: scheme, `www.`, case of the host, a trailing
 * slash, the fragment, tracking parameters and the order of the other parameters do not count. A GUID that is not a
 * URL is compared trimmed and in lower case.
 */
export function normaliseId(value: string | null | undefined): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.toLowerCase();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return raw.toLowerCase();
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = url.pathname.replace(/\/+$/, '') || '';
  return `${host}${url.port ? `:${url.port}` : ''}${path}${query ? `?${query}` : ''}`.toLowerCase();
}

/** The item's words (title and summary, markup and spacing dropped): the same content under a new GUID and link. */
export function contentHash(title: string, summary: string): string {
  const words = `${title}\n${summary}`
    .replace(/<[^>]*>/g, ' ')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return createHash('sha256').update(words).digest('hex');
}
