/**
 * TikTok's caption (`post_info.title`) limit, 2,200, counted in UTF-16 code units as its docs do ("The maximum length
 * is 2200 in UTF-16 runes"). Browser-safe: the compose form, the meta entry and the sandbox count the same way.
 */
export function tiktokTextLength(text: string): number {
  return text.length;
}
