import type { Executor } from '@/db/client';
import { getLiveSessionUser, touchSession } from '@/db/queries/sessions';

/**
 * What the session JWT says about its user. Tokens from before session versions count as version 1; tokens
 * from before session rows (no session id) count as no session: nothing could end them.
 */
export type SessionClaims = { userId: string; sessionVersion?: number | null; sessionId?: string | null };

/**
 * The signed-in user, or null when the session's row is gone (signed out, or signed out from another device),
 * idle too long or past its absolute end, the user is gone, or the token's session version is older than the
 * user's (signed out everywhere, password reset): checked against the database on every request.
 */
export async function resolveSessionUser(db: Executor, claims: SessionClaims, policy: { idleHours: number }) {
  if (!claims.sessionId || !isUuid(claims.sessionId)) return null;
  const user = await getLiveSessionUser(db, {
    sessionId: claims.sessionId,
    userId: claims.userId,
    idleHours: policy.idleHours,
  });
  if (!user || user.sessionVersion !== (claims.sessionVersion ?? 1)) return null;
  if (user.stale) await touchSession(db, { sessionId: claims.sessionId });
  return { id: user.id, email: user.email, name: user.name };
}

// A malformed id would make Postgres refuse the uuid comparison with an error: such a token is simply no session.
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
