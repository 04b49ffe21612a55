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

/**
 * The active workspace, chosen only among the user's memberships (read from the database on every request): the
 * cookie's slug when the user is a member there, else the sign-in token's workspace, else the first. A cookie or
 * token naming a workspace the user does not belong to (any more) is ignored, never trusted.
 */
export function pickActiveMembership<M extends { id: string; slug: string }>(
  memberships: M[],
  choice: { cookieSlug?: string | null; tokenWorkspaceId?: string | null },
): M | null {
  return (
    memberships.find((m) => m.slug === choice.cookieSlug) ??
    memberships.find((m) => m.id === choice.tokenWorkspaceId) ??
    memberships[0] ??
    null
  );
}
