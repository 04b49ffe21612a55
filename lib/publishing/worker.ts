import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import type { ReconcileOptions } from '@/lib/reconcile/reconcile';
import { DEFAULT_PUBLISHER_TUNING, rateLimitsFromEnv, type PublisherOptions } from './config';

/** A worker id that tells people which process held a claim. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Publisher options from the environment, for the scheduler and the cron route. */
export function publisherOptionsFromEnv(overrides: Partial<PublisherOptions> = {}): PublisherOptions {
  const env = getEnv();
  return {
    workerId: newWorkerId(),
    ...DEFAULT_PUBLISHER_TUNING,
    callTimeoutMs: Number(process.env.PUBLISH_CALL_TIMEOUT_MS ?? DEFAULT_PUBLISHER_TUNING.callTimeoutMs),
    budgetMs: 20_000,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    rateLimits: rateLimitsFromEnv(process.env.RATE_LIMITS),
    reconcileDelayMs: Number(process.env.RECONCILE_FIRST_CHECK_MS ?? 2_000),
    ...overrides,
  };
}

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
