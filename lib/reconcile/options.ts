import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import type { ReconcileOptions } from './reconcile';
import type { WatchOptions } from './watch';

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
    allowanceCeilingMs: env.RECONCILE_ALLOWANCE_CEILING_MS,
    recheckDelayMs: env.RECONCILE_RECHECK_MS,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}

/** Late-copy watch options from the validated environment (RECONCILE_WATCH_DELAYS_MS; see .env.example). */
export function watchOptionsFromEnv(overrides: Partial<WatchOptions> = {}): WatchOptions {
  const env = getEnv();
  return {
    workerId: newWorkerId(),
    batchSize: RECONCILE_DEFAULTS.batchSize,
    windowBeforeMs: RECONCILE_DEFAULTS.windowBeforeMs,
    leaseMs: env.PUBLISH_LEASE_MS,
    readTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    delaysMs: env.RECONCILE_WATCH_DELAYS_MS,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}
