/**
 * Instagram's caption limit (2,200 characters) as its docs count it: characters, an emoji as one. Code points
 * here, the count the app's own caption field shows. Browser-safe: the composer, the meta entry and the sandbox
 * (its own counter, held against this one by sandbox/dialects/text-counters.test.ts) count alike.
 */
export function instagramTextLength(text: string): number {
  return [...text.normalize('NFC')].length;
}
