import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import type { ReconcileOptions } from './reconcile';

/** Reconciler options from the environment (RECONCILE_RECHECK_MS sets the read-lag delay). */
export function reconcileOptionsFromEnv(overrides: Partial<ReconcileOptions> = {}): ReconcileOptions {
  return {
    workerId: newWorkerId(),
    batchSize: 50,
    leaseMs: 60_000,
    readTimeoutMs: Number(process.env.PUBLISH_CALL_TIMEOUT_MS ?? 10_000),
    recheckDelayMs: Number(process.env.RECONCILE_RECHECK_MS ?? 15_000),
    windowBeforeMs: 2 * 60_000,
    maxUnreadable: 3,
    releaseMarginMs: 30_000,
    mastodonKeyWindowMs: 55 * 60_000,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}
