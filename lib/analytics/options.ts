import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import { readBudgetOptionsFromEnv } from '@/lib/read-budget/options';
import type { MetricsJobOptions } from './read-metrics';

/** The metrics job's options from the validated environment (ANALYTICS_READ_DELAYS_MS, the read budget's). */
export function metricsOptionsFromEnv(overrides: Partial<MetricsJobOptions> = {}): MetricsJobOptions {
  const env = getEnv();
  return {
    workerId: newWorkerId(),
    batchSize: 200,
    leaseMs: env.PUBLISH_LEASE_MS,
    readTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    delaysMs: env.ANALYTICS_READ_DELAYS_MS,
    maxFailures: 5,
    budgetMs: 20_000,
    readBudget: readBudgetOptionsFromEnv(),
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}
