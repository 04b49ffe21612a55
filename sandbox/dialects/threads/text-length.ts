// Threads' 500-character limit as its docs state it (developers.facebook.com/docs/threads/posts, Limitations): text
// is counted in characters, except that an emoji counts as its UTF-8 bytes. Written apart from the client's
// lib/providers/threads/text-length.ts, so the sandbox judges the product's count instead of agreeing with it.

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const utf8 = new TextEncoder();
// An emoji: a grapheme with a pictograph. Flags and keycaps (no pictograph) count 1, as the product assumes; the docs
// do not say, and no real post has settled it.
const EMOJI = /\p{Extended_Pictographic}/u;

/** The length Threads compares with its 500 limit. */
export function threadsLength(text: string): number {
  let total = 0;
  for (const { segment } of graphemes.segment(text.normalize('NFC')))
    total += EMOJI.test(segment) ? utf8.encode(segment).byteLength : 1;
  return total;
}
