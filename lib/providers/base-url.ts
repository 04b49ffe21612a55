/**
 * This app's own origin, for accounts whose base URL is relative (sandbox accounts: `/api/sandbox/x`).
 * `next start`/`next dev` set PORT to the port they listen on; loopback avoids a trip through a proxy.
 */
export function appOrigin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PORT) return `http://127.0.0.1:${env.PORT}`;
  if (env.NEXTAUTH_URL) return new URL(env.NEXTAUTH_URL).origin;
  return 'http://127.0.0.1:3000';
}

/** The absolute API base for an account: relative base URLs resolve against the app's origin. No trailing slash. */
export function resolveBaseUrl(baseUrl: string, origin: string = appOrigin()): string {
  const absolute = /^https?:\/\//i.test(baseUrl) ? baseUrl : new URL(baseUrl, origin).toString();
  return absolute.replace(/\/+$/, '');
}
