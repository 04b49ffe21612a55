import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import { readBudgetOptionsFromEnv } from '@/lib/read-budget/options';
import type { InboxJobOptions } from './read-inbox';

const DAY_MS = 24 * 3_600_000;

/** The inbox job's options from the validated environment (INBOX_READ_INTERVAL_MS, the read budget's). */
export function inboxOptionsFromEnv(overrides: Partial<InboxJobOptions> = {}): InboxJobOptions {
  const env = getEnv();
  return {
    workerId: newWorkerId(),
    batchSize: 50,
    leaseMs: env.PUBLISH_LEASE_MS,
    readTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS,
    intervalMs: env.INBOX_READ_INTERVAL_MS,
    maxPages: 5,
    backfillMs: 2 * DAY_MS,
    postsWindowMs: 14 * DAY_MS,
    budgetMs: 20_000,
    readBudget: readBudgetOptionsFromEnv(),
    encryptionKey: env.APP_ENCRYPTION_KEY,
    origin: appOrigin(),
    ...overrides,
  };
}
