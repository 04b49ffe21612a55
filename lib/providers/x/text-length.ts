/**
 * X's 280-character limit as X counts it: twitter-text's configuration v3 (github.com/twitter/twitter-text,
 * config/v3.json; docs.x.com/fundamentals/counting-characters). Browser-safe: the composer, the API's checks and
 * the sandbox count the same way.
 * - every URL counts 23 (it is wrapped in a t.co link), whatever its length;
 * - an emoji, with its modifiers and joiners, counts 2;
 * - any other code point counts 1 in U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F, U+2032–U+2037, else 2
 *   (CJK, for instance).
 */
export const X_TRANSFORMED_URL_LENGTH = 23;

const LIGHT_RANGES: readonly [number, number][] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];

const codePointWeight = (cp: number) => (LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 2);

// A grapheme X parses as one emoji: a pictograph drawn as an emoji (outside the light ranges, or asked for with
// VS16), a flag (two regional indicators) or a keycap. A bare © or ® stays an ordinary light character.
function isEmoji(grapheme: string): boolean {
  if (/\p{Regional_Indicator}/u.test(grapheme) || grapheme.includes('\u20e3')) return true;
  if (!/\p{Extended_Pictographic}/u.test(grapheme)) return false;
  return grapheme.includes('\ufe0f') || [...grapheme].some((c) => codePointWeight(c.codePointAt(0)!) === 2);
}

// Common generic TLDs (twitter-text carries IANA's whole list; these are the ones seen in practice). Any two
// letters are read as a country code, as twitter-text's ccTLD list nearly is.
const GENERIC_TLDS =
  'com|net|org|edu|gov|mil|int|info|biz|name|pro|mobi|asia|tel|travel|jobs|app|dev|blog|shop|store|online|site|' +
  'tech|xyz|top|club|news|live|art|design|cloud|page|link|wiki|social|media|agency|email|digital|world|today|' +
  'space|website|studio|network|systems|software|games|video|photo|photos|music|life|love|group|team|company';
const HOST = String.raw`(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+`;
const TLD = String.raw`(?:${GENERIC_TLDS}|[a-z]{2})(?![a-z0-9@])`;
const PATH = String.raw`(?:[/?#][^\s]*)?`;
// Not after a letter, digit or one of @ $ # (a handle, a cashtag, a hashtag), nor inside a word with . - _ /.
const URL_PATTERN = new RegExp(
  String.raw`(?<![\p{L}\p{N}@$#._\-/])(?:(https?://)[^\s]+|(${HOST})(${TLD})(${PATH}))`,
  'giu',
);
const PATH_END = /[A-Za-z0-9=_#/+\-)\p{L}]/u;

/** The URLs X would wrap, as [start, end) UTF-16 offsets into `text`. */
export function findXUrls(text: string): [number, number][] {
  const found: [number, number][] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    let url = match[0];
    const [, protocol, host, tld, path] = match;
    // A bare `name.cc` (one label, a country code, no path) is not linked, except .co and .tv.
    if (!protocol && !path && host!.split('.').length === 2 && tld!.length === 2 && !/^(co|tv)$/i.test(tld!)) continue;
    // Trailing punctuation ends the sentence, not the URL; an unmatched ")" closes the surrounding text.
    while (url.length > 0 && !PATH_END.test(url.at(-1)!)) url = url.slice(0, -1);
    while (url.endsWith(')') && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    if (protocol && url.length <= protocol.length) continue;
    found.push([match.index, match.index + url.length]);
  }
  return found;
}

const count = (s: string, c: string) => s.split(c).length - 1;

/** The weighted length X compares with its 280 limit. */
export function xWeightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  const urls = findXUrls(normalized);
  let length = urls.length * X_TRANSFORMED_URL_LENGTH;
  let cursor = 0;
  for (const [start, end] of [...urls, [normalized.length, normalized.length] as [number, number]]) {
    length += weighOutsideUrls(normalized.slice(cursor, start));
    cursor = end;
  }
  return length;
}

function weighOutsideUrls(text: string): number {
  let length = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    if (isEmoji(segment)) length += 2;
    else for (const c of segment) length += codePointWeight(c.codePointAt(0)!);
  }
  return length;
}
