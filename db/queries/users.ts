import { and, count, eq, gt, inArray, lt } from 'drizzle-orm';
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
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, params.email.toLowerCase()));
  return row ?? null;
}

export async function getUserById(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, params.userId));
  return row ?? null;
}

/** Failures since `since` for an email, an IP, or both (per IP across emails: password spraying). */
export async function countRecentFailedLogins(db: Executor, params: { email?: string; ip?: string; since: Date }) {
  const [row] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(
      params.email === undefined ? undefined : eq(loginAttempts.email, params.email.toLowerCase()),
      params.ip === undefined ? undefined : eq(loginAttempts.ip, params.ip),
      eq(loginAttempts.succeeded, false),
      gt(loginAttempts.createdAt, params.since),
    ));
  return row?.n ?? 0;
}

/** Deletes up to `batchSize` attempts older than `before`; returns how many. */
export async function deleteLoginAttemptsBefore(db: Executor, params: { before: Date; batchSize: number }) {
  const expired = db.select({ id: loginAttempts.id }).from(loginAttempts).where(lt(loginAttempts.createdAt, params.before)).limit(params.batchSize);
  const rows = await db.delete(loginAttempts).where(inArray(loginAttempts.id, expired)).returning({ id: loginAttempts.id });
  return rows.length;
}

export async function recordLoginAttempt(db: Executor, params: { email: string; ip: string; succeeded: boolean }) {
  await db.insert(loginAttempts).values({ ...params, email: params.email.toLowerCase() });
}
