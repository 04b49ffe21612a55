/**
 * A post's link when a browser can open it (http/https); null for an at:// URI (a post on a PDS outside the public
 * Bluesky network has no web page to link to: its URI is shown as text).
 */
export function webLink(url: string | null | undefined): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}
