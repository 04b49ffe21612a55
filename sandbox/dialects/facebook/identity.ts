// Facebook identities on the sandbox. As on Facebook, a person signs in (Facebook Login) and publishes as the pages
// they administer, each with its own page token (GET /me/accounts). Sandbox rule: user `<digits>` administers the
// pages `<digits>1` and `<digits>2`. A page's own row holds no usable token: its page tokens are issued by
// /me/accounts. A one-click sandbox page (no administrator) holds its token itself, as a stored page token would.

const PAGE_SUFFIXES = ['1', '2'] as const;

/** The pages a sandbox user administers (registered or not). */
export const facebookPagesOf = (userId: string) => PAGE_SUFFIXES.map((s) => `${userId}${s}`);

/** The user who administers a sandbox page made by the OAuth consent, or null (a one-click page has none). */
export function facebookAdministratorOf(pageId: string): string | null {
  return /^\d{19}$/.test(pageId) && PAGE_SUFFIXES.some((s) => pageId.endsWith(s)) ? pageId.slice(0, -1) : null;
}
