/** Text as platforms compare it: Unicode NFC, whitespace runs collapsed, trimmed. */
export function normaliseText(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** Characters as users and most platforms count them (code points, not UTF-16 units). */
export function characterCount(text: string): number {
  return [...text.normalize('NFC')].length;
}

/** Graphemes, as Bluesky counts its limit (an emoji with modifiers is one). */
export function graphemeCount(text: string): number {
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.normalize('NFC'))].length;
}
