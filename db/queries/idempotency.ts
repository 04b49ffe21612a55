import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { interval } from './sql-params';
import { idempotencyKeys } from '../schema';

export type IdempotencyScope = { workspaceId: string; operation: string; key: string };

const scopeWhere = (s: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.workspaceId, s.workspaceId),
    eq(idempotencyKeys.operation, s.operation),
    eq(idempotencyKeys.key, s.key),
  );

/** Takes the key if nobody holds it (the unique constraint decides); null when it already exists. */
export async function insertInFlightKey(
  db: Executor,
  params: IdempotencyScope & { fingerprint: string; lockToken: string; leaseMs: number },
) {
  const [row] = await db
    .insert(idempotencyKeys)
    .values({
      workspaceId: params.workspaceId,
      operation: params.operation,
      key: params.key,
      fingerprint: params.fingerprint,
      state: 'in_flight',
      lockToken: params.lockToken,
      lockedUntil: sql`now() + ${interval(params.leaseMs)}`,
      expiresAt: sql`now() + interval '24 hours'`,
    })
    .onConflictDoNothing({ target: [idempotencyKeys.workspaceId, idempotencyKeys.operation, idempotencyKeys.key] })
    .returning({ id: idempotencyKeys.id });
  return row ?? null;
}

export async function getIdempotencyKey(db: Executor, scope: IdempotencyScope) {
  const [row] = await db
    .select({
      id: idempotencyKeys.id,
      fingerprint: idempotencyKeys.fingerprint,
      state: idempotencyKeys.state,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
      resourceId: idempotencyKeys.resourceId,
      retryAfterMs: sql<number>`greatest(0, extract(epoch from (${idempotencyKeys.lockedUntil} - now())) * 1000)::float8`,
    })
    .from(idempotencyKeys)
    .where(scopeWhere(scope));
  return row ?? null;
}

/** An in-flight key whose lease ran out (its request died) may be taken over, by one request only. */
export async function takeOverAbandonedKey(
  db: Executor,
  params: { id: number; fingerprint: string; lockToken: string; leaseMs: number },
) {
  const [row] = await db
    .update(idempotencyKeys)
    .set({ lockToken: params.lockToken, lockedUntil: sql`now() + ${interval(params.leaseMs)}` })
    .where(
      and(
        eq(idempotencyKeys.id, params.id),
        eq(idempotencyKeys.state, 'in_flight'),
        eq(idempotencyKeys.fingerprint, params.fingerprint),
        lt(idempotencyKeys.lockedUntil, sql`now()`),
      ),
    )
    .returning({ id: idempotencyKeys.id });
  return row ?? null;
}

/** Stores the response; fenced by the lock token, so a request that lost its key writes nothing. */
export async function completeIdempotencyKey(
  db: Executor,
  params: {
    id: number;
    lockToken: string;
    responseStatus: number;
    responseBody: string;
    resourceId: string | null;
    expiresAt: Date;
  },
) {
  const rows = await db
    .update(idempotencyKeys)
    .set({
      state: 'completed',
      lockedUntil: null,
      responseStatus: params.responseStatus,
      responseBody: params.responseBody,
      resourceId: params.resourceId,
      expiresAt: params.expiresAt,
    })
    .where(
      and(
        eq(idempotencyKeys.id, params.id),
        eq(idempotencyKeys.state, 'in_flight'),
        eq(idempotencyKeys.lockToken, params.lockToken),
      ),
    )
    .returning({ id: idempotencyKeys.id });
  return rows.length === 1;
}

/** Gives an in-flight key back (the request was rejected before any work), so the client can fix and resend. */
export async function releaseIdempotencyKey(db: Executor, params: { id: number; lockToken: string }) {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.id, params.id),
        eq(idempotencyKeys.state, 'in_flight'),
        eq(idempotencyKeys.lockToken, params.lockToken),
      ),
    );
}

/** Deletes up to `batchSize` expired keys; call until it returns less than the batch. */
export async function deleteExpiredIdempotencyKeys(db: Executor, params: { batchSize: number }) {
  const expired = db
    .select({ id: idempotencyKeys.id })
    .from(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, sql`now()`))
    .limit(params.batchSize);
  const rows = await db
    .delete(idempotencyKeys)
    .where(inArray(idempotencyKeys.id, expired))
    .returning({ id: idempotencyKeys.id });
  return rows.length;
}
