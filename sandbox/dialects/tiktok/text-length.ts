/**
 * The sandbox's own reading of TikTok's caption limit (2,200 "UTF-16 runes"): the bytes of the text in UTF-16,
 * halved. Kept apart from the client's counter (sandbox/dialects/text-counters.test.ts holds the two together).
 */
export function tiktokCaptionLength(text: string): number {
  return Buffer.byteLength(text, 'utf16le') / 2;
}
