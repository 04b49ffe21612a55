import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { DEFAULT_PUBLISHER_TUNING, withDefaultRateLimits, type PublisherOptions } from './config';

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
    callTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    leaseMs: env.PUBLISH_LEASE_MS,
    budgetMs: 20_000,
    // The same options serve every pass of this process's scheduler; a cron call makes new ones, so it maintains.
    maintainEveryMs: 1_000,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    rateLimits: withDefaultRateLimits(env.RATE_LIMITS),
    allowanceMs: env.RECONCILE_ALLOWANCE_MS,
    ...overrides,
  };
}
