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
