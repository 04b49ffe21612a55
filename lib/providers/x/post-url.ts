const REAL_API_HOSTS = new Set(['api.x.com', 'api.twitter.com']);

/** Where a post is seen: x.com for the real API (by its author where known), the sandbox's own lookup otherwise. */
export function xPostUrl(base: string, id: string, username?: string): string {
  if (!REAL_API_HOSTS.has(new URL(base).host)) return `${base}/2/tweets/${encodeURIComponent(id)}`;
  return username ? `https://x.com/${encodeURIComponent(username)}/status/${id}` : `https://x.com/i/web/status/${id}`;
}
