import { getEnv } from '@/lib/env';
import { withDefaultRateLimits } from '@/lib/publishing/config';
import type { ReadBudgetOptions } from './take';

/** The read budget from the validated environment: the publisher's RATE_LIMITS and READ_BUDGET_RESERVED_SHARE. */
export function readBudgetOptionsFromEnv(): ReadBudgetOptions {
  const env = getEnv();
  return { rateLimits: withDefaultRateLimits(env.RATE_LIMITS), reservedShare: env.READ_BUDGET_RESERVED_SHARE };
}
