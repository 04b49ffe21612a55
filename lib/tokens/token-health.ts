import type { Executor } from '@/db/client';
import { markTokenProblem } from '@/db/queries/token-health';
import { logger } from '@/lib/logging/logger';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';

/**
 * A publish or a read found the token refused (`tokenRejected`): the account needs a reconnect. Only if its sealed credentials are still the
 * ones that were refused (a reconnect meanwhile wins); the workspace is told once per incident.
 */
export async function recordTokenRejected(
  db: Executor,
  params: { accountId: string; provider: ProviderName; credentialsEncrypted: string },
) {
  const result = await markTokenProblem(db, {
    accountId: params.accountId,
    status: 'rejected',
    problem: 'the platform rejected its access token (401).',
    networkLabel: PROVIDER_LABEL[params.provider],
    credentialsEncrypted: params.credentialsEncrypted,
  });
  if (result.marked)
    logger.warn(
      { accountId: params.accountId, provider: params.provider },
      'account token rejected (401): deliveries held',
    );
  return result;
}
