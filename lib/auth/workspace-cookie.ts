import 'server-only';
import { cookies } from 'next/headers';

// Here, not in session.ts: sign-in (options.ts, which session.ts imports) sets it too, without an import cycle.
export const WORKSPACE_COOKIE = 'semel-workspace';

/**
 * Remembers the chosen workspace. Only a hint: getWorkspace() honours it only where the user is a member
 * (lib/auth/session-user.ts pickActiveMembership), so a forged cookie opens nothing.
 */
export async function setWorkspaceCookie(slug: string) {
  (await cookies()).set(WORKSPACE_COOKIE, slug, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: process.env.NODE_ENV === 'production' && process.env.NEXTAUTH_URL?.startsWith('https'),
  });
}
