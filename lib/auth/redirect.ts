export const DEFAULT_AFTER_SIGN_IN = '/queue';

// Browsers read `\` as `/` and drop tabs and newlines, so `/\evil.example` and `/<TAB>/evil.example` become `//evil.example`.
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/**
 * Where to go after sign-in: a path on this app, or null. Accepts a same-origin path (`/accounts?x=1`) or an
 * absolute URL on `origin` (next-auth passes those), parsed with URL against the app origin; refuses
 * backslashes, control characters and anything that resolves to `//…` (another host).
 */
export function safeCallbackPath(value: unknown, origin: string): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || UNSAFE.test(value)) return null;
  const base = new URL(origin);
  const relative = value.startsWith('/');
  if (relative && value.startsWith('//')) return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || (!relative && !value.startsWith(base.origin + '/') && value !== base.origin))
    return null;
  // `/.//evil.example` normalises to the path `//evil.example`, which a Location header would send off-site.
  if (url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}

/** next-auth's `redirect` callback: same-origin paths only, else the default page. */
export function redirectAfterAuth({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return new URL(safeCallbackPath(url, baseUrl) ?? DEFAULT_AFTER_SIGN_IN, baseUrl).toString();
}
