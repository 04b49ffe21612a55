import type { Executor } from '@/db/client';
import { getUserById } from '@/db/queries/users';

/** What the session JWT says about its user (tokens from before session versions count as version 1). */
export type SessionClaims = { userId: string; sessionVersion?: number | null };

/**
 * The signed-in user, or null when the user is gone or the token's session version is older than the
 * user's (signed out everywhere, or revoked by an admin): checked against the database on every request.
 */
export async function resolveSessionUser(db: Executor, claims: SessionClaims) {
  const user = await getUserById(db, { userId: claims.userId });
  if (!user || user.sessionVersion !== (claims.sessionVersion ?? 1)) return null;
  return { id: user.id, email: user.email, name: user.name };
}

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
