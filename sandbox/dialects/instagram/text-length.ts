/**
 * Instagram's caption length as the sandbox counts it: UTF-16 code units less the surrogate pairs' second halves
 * (one per character beyond the BMP) — written apart from the client's counter, which the sandbox must never share
 * (sandbox/dialects/text-counters.test.ts holds the two against each other).
 */
export function instagramCaptionLength(text: string): number {
  const normal = text.normalize('NFC');
  return normal.length - (normal.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? []).length;
}
