import { and, count, eq, gt } from 'drizzle-orm';
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

export async function countRecentFailedLogins(db: Executor, params: { email: string; ip?: string; since: Date }) {
  const [row] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(
      eq(loginAttempts.email, params.email.toLowerCase()),
      params.ip === undefined ? undefined : eq(loginAttempts.ip, params.ip),
      eq(loginAttempts.succeeded, false),
      gt(loginAttempts.createdAt, params.since),
    ));
  return row?.n ?? 0;
}

export async function recordLoginAttempt(db: Executor, params: { email: string; ip: string; succeeded: boolean }) {
  await db.insert(loginAttempts).values({ ...params, email: params.email.toLowerCase() });
}
