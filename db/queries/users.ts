import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { loginAttempts, users } from '../schema';

export async function upsertUser(db: Executor, params: { email: string; name: string; passwordHash: string }) {
  const [row] = await db
    .insert(users)
    .values({ ...params, email: params.email.toLowerCase() })
    .onConflictDoUpdate({ target: users.email, set: { name: params.name, passwordHash: params.passwordHash } })
    .returning({ id: users.id, email: users.email, name: users.name });
  return row!;
}

/** Includes the password hash: for the sign-in check only, never for rendering. */
export async function getUserCredentialsByEmail(db: Executor, params: { email: string }) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      sessionVersion: users.sessionVersion,
    })
    .from(users)
    .where(eq(users.email, params.email.toLowerCase()));
  return row ?? null;
}

/**
 * The user with this email, made without a password when there is none (a single sign-on proved the address). Two
 * at once make one user: the loser's insert waits on users_email_uq, does nothing, and then reads the winner's row.
 */
export async function findOrCreateUser(db: Executor, params: { email: string; name: string }) {
  const email = params.email.toLowerCase();
  const [created] = await db
    .insert(users)
    .values({ email, name: params.name })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (created) return { id: created.id, created: true };
  const [found] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: found!.id, created: false };
}

export async function getUserById(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, params.userId));
  return row ?? null;
}

/** "Sign out everywhere": every session carrying an older version stops working on its next request. */
export async function bumpSessionVersion(db: Executor, params: { userId: string }) {
  const [row] = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, params.userId))
    .returning({ sessionVersion: users.sessionVersion });
  return row?.sessionVersion ?? null;
}

/** Transparent rehash after a successful sign-in; only replaces the hash that was just verified. */
export async function replacePasswordHash(
  db: Executor,
  params: { userId: string; previousHash: string; passwordHash: string },
) {
  await db
    .update(users)
    .set({ passwordHash: params.passwordHash })
    .where(and(eq(users.id, params.userId), eq(users.passwordHash, params.previousHash)));
}

/** Deletes up to `batchSize` attempts older than `before`; returns how many. */
export async function deleteLoginAttemptsBefore(db: Executor, params: { before: Date; batchSize: number }) {
  const expired = db
    .select({ id: loginAttempts.id })
    .from(loginAttempts)
    .where(lt(loginAttempts.createdAt, params.before))
    .limit(params.batchSize);
  const rows = await db
    .delete(loginAttempts)
    .where(inArray(loginAttempts.id, expired))
    .returning({ id: loginAttempts.id });
  return rows.length;
}
