// Browser-safe: the composer previews what its links become.

/** A link as people write it in a post: http(s), up to whitespace; trailing punctuation is the sentence's, not the URL's. */
const URL_PATTERN = /https?:\/\/[^\s<>"'\u00a0]+/giu;
const TRAILING = /[.,;:!?'")\]}]+$/u;

/** The links of a text, in order, each once. */
export function findUrls(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    if (url.length > 10 && canParse(url)) found.add(url);
  }
  return [...found];
}

/** Replaces each link of `text` found in `replacements` (every occurrence), leaving the rest of the text as it is. */
export function replaceUrls(text: string, replacements: ReadonlyMap<string, string>): string {
  return text.replace(URL_PATTERN, (match) => {
    const url = match.replace(TRAILING, '');
    const replacement = replacements.get(url);
    return replacement === undefined ? match : replacement + match.slice(url.length);
  });
}

export type Utm = { source: string; medium: string; campaign: string };

/** The URL with UTM tags: utm_source, utm_medium and utm_campaign where given, never replacing tags it already has. */
export function withUtm(url: string, utm: Utm): string {
  const parsed = new URL(url);
  for (const [name, value] of [
    ['utm_source', utm.source],
    ['utm_medium', utm.medium],
    ['utm_campaign', utm.campaign],
  ] as const)
    if (value && !parsed.searchParams.has(name)) parsed.searchParams.append(name, value);
  return parsed.toString();
}

function canParse(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
