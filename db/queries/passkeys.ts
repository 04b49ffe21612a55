import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { passkeys, webauthnChallenges } from '../schema';

/** `second_factor`: issued after a user's password passed, for that user's own passkeys only. */
export type ChallengePurpose = 'register' | 'authenticate' | 'second_factor';

/** Stores a challenge's hash for `ttlSeconds`; expired ones are swept on the way (the table stays small). */
export async function storeChallenge(
  db: Executor,
  params: { challengeHash: string; purpose: ChallengePurpose; userId: string | null; ttlSeconds: number },
) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
  await db.insert(webauthnChallenges).values({
    challengeHash: params.challengeHash,
    purpose: params.purpose,
    userId: params.userId,
    expiresAt: sql`now() + make_interval(secs => ${params.ttlSeconds})`,
  });
}

/**
 * Takes a live challenge exactly once: one DELETE … RETURNING, so of two uses of the same response (a replay, a double
 * submit) only one finds the row. A registration or second-factor challenge is only taken by the user it was issued to.
 */
export async function consumeChallenge(
  db: Executor,
  params: { challengeHash: string; purpose: ChallengePurpose; userId?: string },
) {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challengeHash, params.challengeHash),
        eq(webauthnChallenges.purpose, params.purpose),
        params.userId ? eq(webauthnChallenges.userId, params.userId) : undefined,
      ),
    )
    .returning({
      expiresAt: webauthnChallenges.expiresAt,
      live: sql<boolean>`${webauthnChallenges.expiresAt} > now()`,
    });
  return Boolean(row?.live);
}

export async function insertPasskey(
  db: Executor,
  params: {
    userId: string;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
  },
) {
  const [row] = await db
    .insert(passkeys)
    .values(params)
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning({ id: passkeys.id });
  return row?.id ?? null;
}

/** The caller's passkeys for Settings → Security (never the public key: the browser has no use for it). */
export async function listPasskeys(db: Executor, params: { userId: string }) {
  return db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, params.userId))
    .orderBy(asc(passkeys.createdAt));
}

/** Credential ids of the user's passkeys: excluded at registration (the same authenticator twice). */
export async function listCredentialIds(db: Executor, params: { userId: string }) {
  return db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, params.userId));
}

/** The passkey an assertion names; with `userId`, only when it is that user's (another user's matches nothing). */
export async function getPasskeyByCredentialId(db: Executor, params: { credentialId: string; userId?: string }) {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(
      and(
        eq(passkeys.credentialId, params.credentialId),
        params.userId ? eq(passkeys.userId, params.userId) : undefined,
      ),
    );
  return row ?? null;
}

/**
 * Records a verified use. The counter only moves forward (the condition), so of two assertions racing with the same
 * counter value one updates and the other is refused; authenticators that never count (0) always pass.
 */
export async function recordPasskeyUse(db: Executor, params: { id: string; counter: number }) {
  const [row] = await db
    .update(passkeys)
    .set({ counter: params.counter, lastUsedAt: sql`now()` })
    .where(and(eq(passkeys.id, params.id), sql`(${passkeys.counter} < ${params.counter} or ${params.counter} = 0)`))
    .returning({ id: passkeys.id });
  return Boolean(row);
}

/** Removes one of the caller's passkeys; another user's id matches nothing. */
export async function deletePasskey(db: Executor, params: { id: string; userId: string }) {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, params.id), eq(passkeys.userId, params.userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** How many passkeys the user has: a second factor for lib/auth/second-factor.ts. */
export async function countPasskeys(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(passkeys)
    .where(eq(passkeys.userId, params.userId));
  return row?.n ?? 0;
}
