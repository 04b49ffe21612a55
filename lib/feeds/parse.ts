import { extractFromJson, extractFromXml } from '@extractus/feed-extractor';

export type ParsedEntry = {
  guid: string | null;
  link: string | null;
  title: string;
  summary: string;
  published: string | null;
};
export type ParsedFeed = { ok: true; title: string; entries: ParsedEntry[] } | { ok: false; reason: string };

/** The raw GUID as the feed wrote it (RSS `guid`, Atom `id`, JSON Feed `id`), before the parser falls back to others. */
function rawGuid(item: Record<string, unknown>): { rawGuid: string | null } {
  const value = item.guid ?? item.id;
  if (typeof value === 'string' || typeof value === 'number') return { rawGuid: String(value) };
  if (value && typeof value === 'object') {
    const text = (value as Record<string, unknown>)['#text'];
    if (typeof text === 'string' || typeof text === 'number') return { rawGuid: String(text) };
  }
  return { rawGuid: null };
}

/** The entry's first link as written (RSS `link`, Atom `link href`, JSON Feed `url`). */
function firstLink(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value)) return value.length > 0 ? firstLink(value[0]) : null;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    return firstLink(v['@_href'] ?? v.href ?? v['#text'] ?? null);
  }
  return null;
}

/**
 * The fragment of the entry's link (`#item-2`), which the parser drops: items of one page told apart by their anchor
 * are different items.
 */
function linkFragment(item: Record<string, unknown>): { linkFragment: string | null } {
  const raw = firstLink(item.link ?? item.url);
  if (!raw) return { linkFragment: null };
  try {
    const hash = new URL(raw).hash;
    return { linkFragment: hash.length > 1 ? hash : null };
  } catch {
    return { linkFragment: null };
  }
}

/**
 * A fetched body → its entries (RSS, Atom, RDF or JSON Feed). Only the parser's string functions are used: it never
 * fetches anything on its own (lib/feeds/fetch.ts fetched the body through the outbound guard).
 */
export function parseFeed(body: string, contentType: string | null): ParsedFeed {
  const options = {
    normalization: true,
    useISODateFormat: true,
    descriptionMaxLen: 500,
    getExtraEntryFields: (item: object) => ({
      ...rawGuid(item as Record<string, unknown>),
      ...linkFragment(item as Record<string, unknown>),
    }),
  };
  let data: ReturnType<typeof extractFromXml>;
  try {
    const json = /json/i.test(contentType ?? '') || /^\s*\{/.test(body);
    data = json ? extractFromJson(body, options) : extractFromXml(body, options);
  } catch (error) {
    return { ok: false, reason: `Not a feed: ${(error as Error).message}` };
  }
  const entries = (data.entries ?? []).map((e) => {
    const entry = e as typeof e & { rawGuid?: string | null; linkFragment?: string | null };
    const link = entry.link || null;
    return {
      guid: entry.rawGuid ?? null,
      link: link && entry.linkFragment && !link.includes('#') ? `${link}${entry.linkFragment}` : link,
      title: String(entry.title ?? '').trim(),
      summary: String(entry.description ?? '').trim(),
      published: entry.published || null,
    };
  });
  return { ok: true, title: String(data.title ?? ''), entries };
}
