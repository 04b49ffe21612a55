/**
 * A description as YouTube counts it: UTF-8 bytes (at most 5,000), of the text as it can arrive — YouTube refuses `<`
 * and `>`, so a client that sends this text takes them out, and leading or trailing blanks are not kept.
 */
export function youtubeDescriptionLength(text: string): number {
  return Buffer.byteLength(text.replace(/[<>]/g, '').trim(), 'utf8');
}
