import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { reconciliations } from '@/db/schema';
import { NO_ALLOWANCE } from './publisher';
import { TEST_ENCRYPTION_KEY } from './keys';
import { RECONCILE_DEFAULTS } from '@/lib/reconcile/options';
import type { ReconcileOptions } from '@/lib/reconcile/reconcile';
import type { WatchOptions } from '@/lib/reconcile/watch';

/** Reconciler options for tests: reads as soon as the (short) call timeout has passed, rechecks at once. */
export function testReconcileOptions(origin: string, overrides: Partial<ReconcileOptions> = {}): ReconcileOptions {
  return {
    workerId: `rec-${randomUUID().slice(0, 8)}`,
    ...RECONCILE_DEFAULTS,
    batchSize: 20,
    leaseMs: 30_000,
    readTimeoutMs: 2_000,
    callTimeoutMs: 0,
    allowanceMs: NO_ALLOWANCE,
    recheckDelayMs: 0,
    releaseMarginMs: 1_000,
    encryptionKey: TEST_ENCRYPTION_KEY,
    origin,
    ...overrides,
  };
}

/** Late-copy watch options for tests: steps a few seconds apart instead of minutes (the same code path). */
export function testWatchOptions(origin: string, overrides: Partial<WatchOptions> = {}): WatchOptions {
  return {
    workerId: `watch-${randomUUID().slice(0, 8)}`,
    batchSize: 20,
    leaseMs: 30_000,
    readTimeoutMs: 2_000,
    delaysMs: [3_000, 8_000],
    windowBeforeMs: RECONCILE_DEFAULTS.windowBeforeMs,
    encryptionKey: TEST_ENCRYPTION_KEY,
    origin,
    ...overrides,
  };
}

/** The reconciler's decisions on one delivery, oldest first (`found`, `not_found_recheck`, `released`, …). */
export async function reconcileDecisions(db: Executor, deliveryId: string) {
  const rows = await db
    .select({ decision: reconciliations.decision })
    .from(reconciliations)
    .where(eq(reconciliations.deliveryId, deliveryId))
    .orderBy(reconciliations.checkedAt);
  return rows.map((r) => r.decision);
}
