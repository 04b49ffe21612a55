import type { Database } from '@/db/client';
import { notifyDue } from '@/db/queries/publishing';
import {
  claimExpiringTokens,
  markTokenProblem,
  releaseTokenRefresh,
  storeRefreshedCredentials,
  type ExpiringAccount,
} from '@/db/queries/token-health';
import { logger } from '@/lib/logging/logger';
import { needsRefreshToken } from '@/lib/oauth/refresh';
import { providerDefinition, resolvedAccountFor, type ProviderTransport } from '@/lib/providers';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import { sealCredentials } from '@/lib/providers/credentials';
import type { RefreshResult } from '@/lib/providers/definition';

export type RefreshOptions = {
  workerId: string;
  /** Refresh tokens that expire within this (or already have). */
  marginMs: number;
  /** One refresher per account for this long; longer than a refresh call (a lapsed lease lets a second one in). */
  leaseMs: number;
  batchSize: number;
  /** After a refresh that failed for a passing reason (network, 5xx), the next try. */
  retryMs: number;
  encryptionKey: string;
  origin?: string;
  transport?: ProviderTransport;
};

export type RefreshSummary = {
  claimed: number;
  refreshed: number;
  rejected: number;
  expired: number;
  retry: number;
  waiting: number;
  fenced: number;
};

/** Never claimed again until a reconnect frees it (connectAccount clears the lease). */
const UNTIL_RECONNECT = new Date('9999-12-31T00:00:00Z');

/**
 * One pass of the token job, safe with any number of concurrent runners: each expiring account is claimed by
 * one refresher (its lease, taken in one statement with SKIP LOCKED), refreshed by its registry entry's
 * `refresh`, and the new credentials are written fenced by that lease and by the credentials it read. A refresh
 * token is single use on most networks: two refreshers racing would spend it twice and lose the account.
 */
export async function refreshExpiringTokens(db: Database, options: RefreshOptions): Promise<RefreshSummary> {
  const summary: RefreshSummary = {
    claimed: 0,
    refreshed: 0,
    rejected: 0,
    expired: 0,
    retry: 0,
    waiting: 0,
    fenced: 0,
  };
  for (;;) {
    const claimed = await claimExpiringTokens(db, {
      marginMs: options.marginMs,
      leaseMs: options.leaseMs,
      limit: options.batchSize,
    });
    summary.claimed += claimed.length;
    const results = await Promise.all(claimed.map((account) => refreshOne(db, account, options)));
    for (const result of results) summary[result]++;
    if (claimed.length < options.batchSize) break;
  }
  if (summary.refreshed > 0) await notifyDue(db); // an account back from `expired` may have deliveries waiting
  return summary;
}

type Result = Exclude<keyof RefreshSummary, 'claimed'>;

async function refreshOne(db: Database, account: ExpiringAccount, options: RefreshOptions): Promise<Result> {
  const definition = providerDefinition(account.provider);
  const expired = Date.parse(account.tokenExpiresAt) <= Date.now();
  const lease = { accountId: account.id, lease: account.lease };
  const incident = (status: 'expired' | 'rejected', problem: string) =>
    markTokenProblem(db, {
      accountId: account.id,
      status,
      problem,
      networkLabel: PROVIDER_LABEL[account.provider],
      credentialsEncrypted: account.credentialsEncrypted,
    });

  let resolved;
  try {
    resolved = resolvedAccountFor(account, { encryptionKey: options.encryptionKey, origin: options.origin });
  } catch {
    await incident('rejected', 'its stored credentials cannot be opened (was the encryption key changed?).');
    await releaseTokenRefresh(db, { ...lease, until: null });
    return 'rejected';
  }
  // Nothing can renew it (no refresh, or a refresh_token grant without a refresh token): it lasts until it expires.
  if (!definition.refresh || (needsRefreshToken(definition.refresh) && !resolved.credentials.refreshToken)) {
    if (!expired) {
      await releaseTokenRefresh(db, { ...lease, until: new Date(account.tokenExpiresAt) });
      return 'waiting';
    }
    await incident('expired', 'its access token expired and cannot be refreshed.');
    await releaseTokenRefresh(db, { ...lease, until: UNTIL_RECONNECT });
    return 'expired';
  }

  let result: RefreshResult;
  try {
    result = await definition.refresh(resolved, options.transport);
  } catch (error) {
    result = { ok: false, rejected: false, reason: (error as Error).message };
  }
  if (result.ok) {
    const sealed = sealCredentials(result.credentials, options.encryptionKey, account.id);
    const stored = await storeRefreshedCredentials(db, {
      accountId: account.id,
      lease: account.lease,
      previous: account.credentialsEncrypted,
      credentialsEncrypted: sealed.credentialsEncrypted,
      tokenLast4: sealed.tokenLast4,
      expiresAt: result.credentials.expiresAt ? new Date(result.credentials.expiresAt) : null,
    });
    if (!stored)
      logger.warn({ accountId: account.id }, 'token refresh: fenced out (lease lapsed or account reconnected)');
    return stored ? 'refreshed' : 'fenced';
  }
  logger.warn(
    { accountId: account.id, provider: account.provider, rejected: result.rejected, reason: result.reason },
    'token refresh failed',
  );
  if (result.rejected) {
    await incident('rejected', `the platform refused to renew its token: ${result.reason}`);
    await releaseTokenRefresh(db, { ...lease, until: null });
    return 'rejected';
  }
  if (expired) await incident('expired', `its access token expired and could not be renewed yet (${result.reason}).`);
  await releaseTokenRefresh(db, { ...lease, until: new Date(Date.now() + options.retryMs) });
  return expired ? 'expired' : 'retry';
}
