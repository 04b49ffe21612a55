// Rich-text facets (app.bsky.richtext.facet): Bluesky does not parse links or mentions out of the text;
// the client marks them with UTF-8 byte ranges. Detection follows the official client's rules
// (@atproto/api rich-text/detection.ts) for links with a scheme and for mentions.

export type Facet = {
  index: { byteStart: number; byteEnd: number };
  features: (
    { $type: 'app.bsky.richtext.facet#link'; uri: string } | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  )[];
};

export type FacetCandidate =
  | { type: 'link'; uri: string; byteStart: number; byteEnd: number }
  | { type: 'mention'; handle: string; byteStart: number; byteEnd: number };

/** Handles resolved per post (one lookup each, before the write). */
export const MAX_MENTIONS = 10;
const MENTION = /(^|\s|\()@([a-zA-Z0-9.-]+)(\b)/g;
const LINK = /(^|\s|\()(https?:\/\/\S+)/gi;
/** A handle is a domain name: labels of letters, digits and hyphens, the last one starting with a letter. */
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Byte offset in UTF-8 of a UTF-16 index (JavaScript string positions). */
export function utf8Index(text: string, utf16Index: number): number {
  return Buffer.byteLength(text.slice(0, utf16Index), 'utf8');
}

/** Links and mentions in the text, in order, with their UTF-8 byte ranges (a mention includes its "@"). */
export function detectFacets(text: string): FacetCandidate[] {
  const found: FacetCandidate[] = [];
  for (const match of text.matchAll(MENTION)) {
    const handle = match[2]!.replace(/\.+$/, '');
    if (!HANDLE.test(handle) || handle.length > 253) continue;
    const start = match.index + match[1]!.length;
    found.push({
      type: 'mention',
      handle: handle.toLowerCase(),
      byteStart: utf8Index(text, start),
      byteEnd: utf8Index(text, start + 1 + handle.length),
    });
  }
  for (const match of text.matchAll(LINK)) {
    let uri = match[2]!;
    // A sentence's closing punctuation is not part of the link; nor is a closing parenthesis without an opening one.
    if (/[.,;:!?]$/.test(uri)) uri = uri.slice(0, -1);
    if (uri.endsWith(')') && !uri.includes('(')) uri = uri.slice(0, -1);
    const start = match.index + match[1]!.length;
    found.push({
      type: 'link',
      uri,
      byteStart: utf8Index(text, start),
      byteEnd: utf8Index(text, start + uri.length),
    });
  }
  return found.sort((a, b) => a.byteStart - b.byteStart);
}

/**
 * Facets for the text: links as they are, mentions whose handle resolves to a DID (at most `MAX_MENTIONS`
 * handles, looked up in parallel). A mention that does not resolve stays plain text, as in the Bluesky app.
 */
export async function buildFacets(
  text: string,
  resolveHandle: (handle: string) => Promise<string | null>,
): Promise<Facet[]> {
  const candidates = detectFacets(text);
  const handles = [...new Set(candidates.flatMap((c) => (c.type === 'mention' ? [c.handle] : [])))].slice(
    0,
    MAX_MENTIONS,
  );
  const dids = new Map(await Promise.all(handles.map(async (h) => [h, await resolveHandle(h)] as const)));
  const facets: Facet[] = [];
  for (const candidate of candidates) {
    const index = { byteStart: candidate.byteStart, byteEnd: candidate.byteEnd };
    if (candidate.type === 'link') {
      facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#link', uri: candidate.uri }] });
      continue;
    }
    const did = dids.get(candidate.handle);
    if (did) facets.push({ index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
  }
  return facets;
}
