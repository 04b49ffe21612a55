const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * The origin the caller used. Behind `next start` a handler's `request.url` carries the server's own
 * hostname (localhost), so the Host header — or X-Forwarded-Host/-Proto set by a proxy in front — wins.
 * A malformed value falls back to the URL's origin.
 */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const host = first('x-forwarded-host') ?? first('host');
  const proto = first('x-forwarded-proto') ?? url.protocol.slice(0, -1);
  if (!host || !HOST.test(host) || (proto !== 'http' && proto !== 'https')) return url.origin;
  return `${proto}://${host}`;
}

/**
 * The dashboard's own uploads come from its own pages: a request whose Origin is another site's is refused
 * (with the session cookie SameSite=Lax this is the second belt against a cross-site form post).
 */
export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get('origin');
  return Boolean(origin && origin !== requestOrigin(request));
}
