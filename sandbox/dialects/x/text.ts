import { createHash } from 'node:crypto';

// A post's text as X itself treats it: counted (twitter-text v3 weights), links wrapped in t.co, a long post shown
// truncated. Written apart from the product's counter (lib/providers/x/text-length.ts) on purpose: the sandbox
// judges the product's text by its own reading of X's rules, not by the same code agreeing with itself.

/** Every link weighs this much, whatever its length: X counts the t.co link that replaces it. */
const LINK_WEIGHT = 23;
/** A post longer than this (weighted) is a "note tweet": `text` shows it truncated (X Premium posts). */
export const X_SHOWN_LIMIT = 280;

const TLDS = new Set(
  (
    'com net org edu gov mil int info biz name pro mobi app dev io ai blog shop store online site tech xyz top club ' +
    'news live art design cloud page link wiki social media email digital world today space website studio network ' +
    'software games video photo music life group team company'
  ).split(' '),
);
// A host, then an optional path; with a scheme anything up to a space. Not inside a word, a handle or a hashtag.
const LINK =
  /(?<![\p{L}\p{N}@#$_./-])(?:https?:\/\/[^\s]+|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+([a-z]{2,})(?![\p{L}\p{N}@-])(?:[/?#][^\s]*)?)/giu;
const LINK_END = /[\p{L}\p{N}/=_#+)-]/u;

export type FoundLink = { start: number; end: number; link: string };

/** The links X wraps, as UTF-16 offsets into `text`. */
export function findLinks(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const m of text.matchAll(LINK)) {
    let link = m[0];
    const tld = m[1]?.toLowerCase();
    const hasScheme = /^https?:\/\//i.test(link);
    const hasPath = /[/?#]/.test(link.replace(/^https?:\/\//i, ''));
    // A bare name.cc with no path is not a link (except .co and .tv); a bare name.unknown never is.
    if (!hasScheme && tld && !TLDS.has(tld) && !(tld.length === 2 && (hasPath || tld === 'co' || tld === 'tv')))
      continue;
    while (link.length > 0 && !LINK_END.test(link.at(-1)!)) link = link.slice(0, -1);
    while (link.endsWith(')') && link.split('(').length < link.split(')').length) link = link.slice(0, -1);
    if (hasScheme && !/^https?:\/\/[^/?#\s]+\.[^/?#\s]+/i.test(link)) continue;
    found.push({ start: m.index, end: m.index + link.length, link });
  }
  return found;
}

const LIGHT: [number, number][] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const isEmoji = (g: string) =>
  /\p{Regional_Indicator}{2}|\u20e3|\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f/u.test(g);
const weightOf = (cp: number) => (LIGHT.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 2);

/** X's weighted length: links 23, an emoji 2, a code point 1 in the light ranges (Latin…), else 2 (CJK…). */
export function weightedLength(text: string): number {
  const normal = text.normalize('NFC');
  let total = 0;
  let at = 0;
  const plain = (part: string) => {
    for (const { segment } of segmenter.segment(part))
      total += isEmoji(segment) ? 2 : [...segment].reduce((n, c) => n + weightOf(c.codePointAt(0)!), 0);
  };
  for (const link of findLinks(normal)) {
    plain(normal.slice(at, link.start));
    total += LINK_WEIGHT;
    at = link.end;
  }
  plain(normal.slice(at));
  return total;
}

/** X's t.co link for the post's n-th link: stable for the post, 10 characters as t.co's are. */
function shortLink(postId: string, n: number): string {
  const digest = createHash('sha256').update(`${postId}:${n}`).digest('base64url').replace(/[-_]/g, 'x');
  return `https://t.co/${digest.slice(0, 10)}`;
}

/** How X displays a link: without the scheme (and www.), long ones cut with an ellipsis (docs' example payload). */
function displayOf(link: string): string {
  const bare = link.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
  return [...bare].length > 22 ? `${[...bare].slice(0, 21).join('')}…` : bare;
}

type UrlEntity = { start: number; end: number; url: string; expanded_url: string; display_url: string };

/** The text as X returns it: every link replaced by its t.co link, with `entities.urls` (offsets in code points). */
function wrapLinks(postId: string, text: string): { text: string; urls: UrlEntity[] } {
  let out = '';
  let at = 0;
  const urls: UrlEntity[] = [];
  findLinks(text).forEach((link, n) => {
    out += text.slice(at, link.start);
    const url = shortLink(postId, n);
    const start = [...out].length;
    out += url;
    const expanded = /^https?:\/\//i.test(link.link) ? link.link : `http://${link.link}`;
    urls.push({ start, end: start + [...url].length, url, expanded_url: expanded, display_url: displayOf(link.link) });
    at = link.end;
  });
  return { text: out + text.slice(at), urls };
}

/**
 * A long post's `text` as X shows it: the longest prefix ending at a word boundary that fits 280 with the ellipsis
 * (a 287-character post reads back as its first 270, cut before the word that would not fit), then "…".
 */
function truncate(text: string): string {
  const fits = (shown: string) => weightedLength(`${shown.trimEnd()}…`) <= X_SHOWN_LIMIT;
  let shown = '';
  for (const word of text.split(/(?<=\s)/)) {
    if (!fits(shown + word)) break;
    shown += word;
  }
  if (shown.trim() === '') {
    // One long word: cut by code points.
    for (const c of text) {
      if (!fits(shown + c)) break;
      shown += c;
    }
  }
  return `${shown.trimEnd()}…`;
}

export type ShownText = {
  text: string;
  entities?: { urls: UrlEntity[] };
  note_tweet?: { text: string; entities?: { urls: UrlEntity[] } };
};

/**
 * A post as the v2 read endpoints return it: links as t.co; `entities` only when asked for (tweet.fields=entities);
 * over 280, `text` truncated and the whole text only in `note_tweet`, only when asked for (tweet.fields=note_tweet).
 */
export function shownText(postId: string, original: string, fields: Set<string>): ShownText {
  const full = wrapLinks(postId, original);
  const long = weightedLength(original) > X_SHOWN_LIMIT;
  const text = long ? truncate(full.text) : full.text;
  const cut = [...text].length;
  const urls = long ? full.urls.filter((u) => u.end <= cut - 1) : full.urls;
  const entities = (list: UrlEntity[]) => (fields.has('entities') && list.length > 0 ? { urls: list } : undefined);
  return {
    text,
    ...(entities(urls) ? { entities: entities(urls) } : {}),
    ...(long && fields.has('note_tweet')
      ? { note_tweet: { text: full.text, ...(entities(full.urls) ? { entities: entities(full.urls) } : {}) } }
      : {}),
  };
}
