import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { oauthStates, type OAuthState } from '../schema';
import type { ProviderName } from '@/db/schema';

export async function insertOAuthState(db: Executor, params: typeof oauthStates.$inferInsert) {
  await db.insert(oauthStates).values(params);
}

/**
 * Uses a state once, atomically: only an unused, unexpired state of this user, workspace and network is
 * consumed (of two concurrent callbacks, one wins). Null when nothing matched (see `getOAuthStateByHash` for why).
 */
export async function consumeOAuthState(
  db: Executor,
  params: { stateHash: string; userId: string; workspaceId: string; provider: ProviderName },
): Promise<OAuthState | null> {
  const [row] = await db
    .update(oauthStates)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(oauthStates.stateHash, params.stateHash),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, sql`now()`),
        eq(oauthStates.userId, params.userId),
        eq(oauthStates.workspaceId, params.workspaceId),
        eq(oauthStates.provider, params.provider),
      ),
    )
    .returning();
  return row ?? null;
}

/** A state as stored, whoever it belongs to: only to say why a callback was refused. */
export async function getOAuthStateByHash(db: Executor, params: { stateHash: string }) {
  const [row] = await db
    .select({
      userId: oauthStates.userId,
      workspaceId: oauthStates.workspaceId,
      provider: oauthStates.provider,
      usedAt: oauthStates.usedAt,
      expired: sql<boolean>`${oauthStates.expiresAt} <= now()`,
    })
    .from(oauthStates)
    .where(eq(oauthStates.stateHash, params.stateHash));
  return row ?? null;
}

/** Connects abandoned long ago are forgotten (a day after they expired). */
export async function deleteStaleOAuthStates(db: Executor) {
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, sql`now() - interval '1 day'`));
}
