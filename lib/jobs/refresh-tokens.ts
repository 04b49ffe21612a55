import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { newWorkerId } from '@/lib/publishing/worker';
import { refreshExpiringTokens } from '@/lib/tokens/refresh-expiring';
import { defineJob } from './job';

/**
 * Renews access tokens before they expire (lib/tokens/refresh-expiring.ts): every minute, tokens expiring within
 * ten minutes, one refresher per account under its lease. X's live two hours, so there is time for retries.
 */
export const refreshTokensJob = defineJob({
  name: 'refresh-tokens',
  run: refreshExpiringTokens,
  defaults: () => ({
    workerId: newWorkerId(),
    marginMs: 10 * 60_000,
    leaseMs: 60_000,
    batchSize: 20,
    retryMs: 60_000,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    origin: appOrigin(),
  }),
  cadence: { everyMs: 60_000 },
});
