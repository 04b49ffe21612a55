import 'next-auth';

declare module 'next-auth' {
  interface Session {
    user: { id: string; name?: string | null; email?: string | null; image?: string | null };
    /** The workspace chosen at sign-in; the active one may differ (switcher cookie), checked per request. */
    workspaceId: string | null;
    role: string | null;
    /** Compared with users.session_version on every request (lib/auth/session-user.ts). */
    sessionVersion: number | null;
    /** The session row (lib/auth/session-user.ts): deleted at sign-out, checked on every request. */
    sessionId: string | null;
  }
}
