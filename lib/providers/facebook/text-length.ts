/**
 * Facebook's page post limit, 63,206 characters (the composer's documented maximum; the Graph API refuses longer
 * messages): counted as UTF-16 code units, as Facebook's own counter does, so an emoji counts 2. Browser-safe.
 */
export function facebookTextLength(text: string): number {
  return text.normalize('NFC').length;
}
