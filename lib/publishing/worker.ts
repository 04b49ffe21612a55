import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
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

