/**
 * Threads' 500-character limit as its docs count it (developers.facebook.com/docs/threads/posts, Limitations):
 * characters as graphemes, except that an emoji counts as its number of UTF-8 bytes. Browser-safe: the
 * compose form, the meta entry and the sandbox count the same way.
 */
export function threadsTextLength(text: string): number {
  let length = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.normalize('NFC')))
    length += /\p{Extended_Pictographic}/u.test(segment) ? new TextEncoder().encode(segment).length : 1;
  return length;
}
