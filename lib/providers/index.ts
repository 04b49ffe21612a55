import { baseUrlRefusal, type OutboundPolicy } from '@/lib/net/outbound-guard';
import { appOrigin, resolveBaseUrl } from './base-url';
import { openCredentials } from './credentials';
import { createMastodonClient } from './mastodon/client';
import type { ProviderTransport } from './transport';
import type { ProviderAccount, ProviderClient, ProviderName } from './types';
import { createXClient } from './x/client';

export type * from './types';
export type { ProviderTransport } from './transport';
export { ProviderReadError } from './types';
export { appOrigin, resolveBaseUrl } from './base-url';

/**
 * A client for one account. A relative base URL (the sandbox) resolves against `origin` (default: this app),
 * which is then trusted; any other base URL goes through the outbound guard, even one naming this app.
 */
export function createProviderClient(
  account: ProviderAccount,
  options: { origin?: string; transport?: ProviderTransport } = {},
): ProviderClient {
  const sandboxPath = /^\/(?![/\\])/.test(account.baseUrl);
  const origin = options.origin ?? appOrigin();
  const outbound: OutboundPolicy = sandboxPath
    ? { trustedOrigin: origin }
    : { baseUrlProblem: baseUrlRefusal(account.baseUrl) ?? undefined };
  const baseUrl = sandboxPath ? resolveBaseUrl(account.baseUrl, origin) : account.baseUrl.replace(/\/+$/, '');
  const resolved = { ...account, baseUrl, outbound };
  switch (account.provider) {
    case 'x':
      return createXClient(resolved, options.transport);
    case 'mastodon':
      return createMastodonClient(resolved, options.transport);
    case 'bluesky':
      throw new Error('Bluesky accounts are not supported yet');
  }
}

/** The same from a stored social_accounts row: decrypts its sealed credentials (never logged). */
export function providerClientForAccount(
  account: {
    id: string;
    provider: ProviderName;
    baseUrl: string;
    platformUserId: string;
    credentialsEncrypted: string;
  },
  options: { encryptionKey: string; origin?: string; transport?: ProviderTransport },
): ProviderClient {
  const { accessToken } = openCredentials(account.credentialsEncrypted, options.encryptionKey, account.id);
  return createProviderClient(
    { provider: account.provider, baseUrl: account.baseUrl, platformUserId: account.platformUserId, accessToken },
    options,
  );
}
