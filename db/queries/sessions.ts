import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { sessions, users } from '../schema';

/** How long a session lasts: idle (since it was last seen) and absolute (since sign-in). */
export type SessionPolicy = { idleHours: number; maxDays: number };

// last_seen_at is written at most this often: a page load makes several requests, none needs its own write.
const TOUCH_EVERY = sql`interval '1 minute'`;

/** A session is live while it is neither idle too long nor past its absolute end, and its version is current. */
const live = (policy: Pick<SessionPolicy, 'idleHours'>) =>
  and(
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - make_interval(hours => ${policy.idleHours})`),
    eq(sessions.sessionVersion, users.sessionVersion),
  );

/** One row per sign-in; its id goes into the JWT. */
export async function createSession(
  db: Executor,
  params: { userId: string; sessionVersion: number; userAgent: string | null; address: string; maxDays: number },
) {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: params.userId,
      sessionVersion: params.sessionVersion,
      userAgent: params.userAgent?.slice(0, 512) ?? null,
      address: params.address,
      expiresAt: sql`now() + make_interval(days => ${params.maxDays})`,
    })
    .returning({ id: sessions.id });
  return row!.id;
}

/** The session's user when the session is live and belongs to them; `stale` says last_seen_at is due a write. */
export async function getLiveSessionUser(
  db: Executor,
  params: { sessionId: string; userId: string; idleHours: number },
) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      sessionVersion: users.sessionVersion,
      stale: sql<boolean>`${sessions.lastSeenAt} < now() - ${TOUCH_EVERY}`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, params.sessionId), eq(sessions.userId, params.userId), live(params)));
  return row ?? null;
}

/** Records activity, at most once a minute per session (the condition makes a second write a no-op). */
export async function touchSession(db: Executor, params: { sessionId: string }) {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(sessions.id, params.sessionId), sql`${sessions.lastSeenAt} < now() - ${TOUCH_EVERY}`));
}

/** The user's live sessions, most recently seen first (no secrets in a row: safe to render). */
export async function listLiveSessions(db: Executor, params: { userId: string; idleHours: number }) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      address: sessions.address,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.userId, params.userId), live(params)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Ends one session, only if it is the user's own; returns whether one was ended. */
export async function deleteSession(db: Executor, params: { sessionId: string; userId: string }) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, params.sessionId), eq(sessions.userId, params.userId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every session of the user but one (this device); returns how many. */
export async function deleteOtherSessions(db: Executor, params: { userId: string; keepSessionId: string }) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, params.userId), ne(sessions.id, params.keepSessionId)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** Ends every session of the user. */
export async function deleteAllSessions(db: Executor, params: { userId: string }) {
  const rows = await db.delete(sessions).where(eq(sessions.userId, params.userId)).returning({ id: sessions.id });
  return rows.length;
}

/** Deletes up to `batchSize` sessions past their absolute end or idle too long; returns how many. */
export async function deleteEndedSessions(db: Executor, params: { idleHours: number; batchSize: number }) {
  const ended = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      sql`${sessions.expiresAt} <= now() or ${sessions.lastSeenAt} <= now() - make_interval(hours => ${params.idleHours})`,
    )
    .limit(params.batchSize);
  const rows = await db
    .delete(sessions)
    .where(sql`${sessions.id} in ${ended}`)
    .returning({ id: sessions.id });
  return rows.length;
}
