import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import type { ReconcileOptions } from './reconcile';

/** The defaults shared by the environment's options and the tests'. */
export const RECONCILE_DEFAULTS = {
  batchSize: 50,
  windowBeforeMs: 2 * 60_000,
  maxUnreadable: 3,
  releaseMarginMs: 30_000,
  maxReleases: 2,
} as const satisfies Partial<ReconcileOptions>;

/** Reconciler options from the validated environment (PUBLISH_*, RECONCILE_*; see .env.example). */
export function reconcileOptionsFromEnv(overrides: Partial<ReconcileOptions> = {}): ReconcileOptions {
  const env = getEnv();
  return {
    workerId: newWorkerId(),
    ...RECONCILE_DEFAULTS,
    leaseMs: env.PUBLISH_LEASE_MS,
    readTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    callTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    allowanceMs: env.RECONCILE_ALLOWANCE_MS,
    recheckDelayMs: env.RECONCILE_RECHECK_MS,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}
