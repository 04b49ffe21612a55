// Facebook's 63,206-character limit for a page post's message, read as its composer counts (UTF-16 code units: an
// emoji outside the BMP counts 2). Written apart from the client's lib/providers/facebook/text-length.ts, so the
// sandbox judges the product's count instead of agreeing with it.

export const FACEBOOK_MAX_MESSAGE = 63_206;

export function facebookMessageLength(text: string): number {
  let units = 0;
  for (const char of text.normalize('NFC')) units += char.codePointAt(0)! > 0xffff ? 2 : 1;
  return units;
}
