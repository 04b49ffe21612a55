import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '@/db/client';
import {
  completeIdempotencyKey,
  getIdempotencyKey,
  insertInFlightKey,
  releaseIdempotencyKey,
  takeOverAbandonedKey,
  type IdempotencyScope,
} from '@/db/queries/idempotency';
import { countIdempotencyOutcome } from '@/lib/metrics/record';

export type StoredResponse = { status: number; body: string; resourceId: string | null };

/**
 * What the operation decided: a response to store (and replay), or a typed rejection `R` that is not
 * stored (its writes roll back and the key is released, so a corrected retry may reuse it).
 */
export type OperationResult<R = never> =
  | { store: true; status: number; body: string; resourceId: string | null; retainUntil: Date }
  | { store: false; rejection: R };

export type IdempotentOutcome<R = never> =
  | { kind: 'executed'; response: StoredResponse }
  | { kind: 'replayed'; response: StoredResponse }
  | { kind: 'rejected'; rejection: R }
  | { kind: 'mismatch' }
  | { kind: 'in_flight'; retryAfterSeconds: number };

const DEFAULT_LEASE_MS = 30_000;
const MIN_RETENTION_MS = 24 * 60 * 60 * 1000;

class LostKeyError extends Error {}
class RejectedError<R> extends Error {
  constructor(readonly rejection: R) {
    super('rejected');
  }
}

/** Retention: never less than 24 hours, and at least what the operation asks for (scheduled time + 7 days). */
export function retentionUntil(requested: Date, now = new Date()): Date {
  return new Date(Math.max(requested.getTime(), now.getTime() + MIN_RETENTION_MS));
}

/**
 * Runs `operation` at most once per (workspace, operation, key) — docs/architecture.md#inbound-idempotency.
 * 1. The key row is taken in its own short commit (the unique constraint picks one winner), so a
 *    concurrent duplicate sees "in flight" (409) instead of running again.
 * 2. The operation's writes and the stored response commit in one transaction, fenced by the lock token.
 */
export async function runIdempotent<R = never>(
  db: Database,
  scope: IdempotencyScope & { fingerprint: string },
  operation: (tx: Transaction) => Promise<OperationResult<R>>,
  options: { leaseMs?: number } = {},
): Promise<IdempotentOutcome<R>> {
  return runIdempotentPrepared(
    db,
    scope,
    { prepare: async () => ({ ok: true, value: undefined }), operation },
    options,
  );
}

/**
 * The same, with a `prepare` step run under the held key but before the transaction: a slow call to another
 * server (a connection check) that a replay must not repeat and a duplicate must wait for (409), without
 * holding a database transaction open meanwhile. Its rejection is not stored: the key is released.
 */
export async function runIdempotentPrepared<P, R = never>(
  db: Database,
  scope: IdempotencyScope & { fingerprint: string },
  steps: {
    prepare: () => Promise<{ ok: true; value: P } | { ok: false; rejection: R }>;
    operation: (tx: Transaction, prepared: P) => Promise<OperationResult<R>>;
  },
  options: { leaseMs?: number } = {},
): Promise<IdempotentOutcome<R>> {
  const outcome = await runOnce(db, scope, steps, options);
  countIdempotencyOutcome(scope.operation, outcome.kind); // replayed, in_flight (409), mismatch (422), …
  return outcome;
}

async function runOnce<P, R>(
  db: Database,
  scope: IdempotencyScope & { fingerprint: string },
  steps: {
    prepare: () => Promise<{ ok: true; value: P } | { ok: false; rejection: R }>;
    operation: (tx: Transaction, prepared: P) => Promise<OperationResult<R>>;
  },
  options: { leaseMs?: number },
): Promise<IdempotentOutcome<R>> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const lockToken = randomUUID();
  let held = await insertInFlightKey(db, { ...scope, lockToken, leaseMs });

  if (!held) {
    const existing = await getIdempotencyKey(db, scope);
    if (!existing) return runOnce(db, scope, steps, options); // released between our two statements
    if (existing.fingerprint !== scope.fingerprint) return { kind: 'mismatch' };
    if (existing.state === 'completed') {
      return {
        kind: 'replayed',
        response: { status: existing.responseStatus!, body: existing.responseBody!, resourceId: existing.resourceId },
      };
    }
    if (existing.retryAfterMs > 0)
      return { kind: 'in_flight', retryAfterSeconds: Math.max(1, Math.ceil(existing.retryAfterMs / 1000)) };
    held = await takeOverAbandonedKey(db, { id: existing.id, fingerprint: scope.fingerprint, lockToken, leaseMs });
    if (!held) return { kind: 'in_flight', retryAfterSeconds: 1 };
  }

  try {
    const prepared = await steps.prepare();
    if (!prepared.ok) throw new RejectedError(prepared.rejection);
    const response = await db.transaction(async (tx) => {
      const result = await steps.operation(tx, prepared.value);
      if (!result.store) throw new RejectedError(result.rejection);
      const completed = await completeIdempotencyKey(tx, {
        id: held.id,
        lockToken,
        responseStatus: result.status,
        responseBody: result.body,
        resourceId: result.resourceId,
        expiresAt: retentionUntil(result.retainUntil),
      });
      // Our lease lapsed and another request took the key over: roll back, it is theirs to finish.
      if (!completed) throw new LostKeyError();
      return { status: result.status, body: result.body, resourceId: result.resourceId };
    });
    return { kind: 'executed', response };
  } catch (error) {
    if (error instanceof LostKeyError) return { kind: 'in_flight', retryAfterSeconds: 1 };
    await releaseIdempotencyKey(db, { id: held.id, lockToken });
    if (error instanceof RejectedError) return { kind: 'rejected', rejection: error.rejection as R };
    throw error;
  }
}
