import { baseUrlRefusal, type OutboundPolicy } from '@/lib/net/outbound-guard';
import { appOrigin, resolveBaseUrl } from './base-url';
import { openCredentials } from './credentials';
import type { ConnectTools, ResolvedAccount, VerifyResult } from './definition';
import { providerDefinition } from './registry';
import type { ProviderTransport } from './transport';
import type { AccountCredentials, ProviderAccount, ProviderClient, ProviderName } from './types';

export type * from './types';
export type { ProviderTransport } from './transport';
export { ProviderReadError } from './types';
export { appOrigin, resolveBaseUrl } from './base-url';
export { PROVIDERS, providerDefinition } from './registry';

type ClientOptions = { origin?: string; transport?: ProviderTransport };

/**
 * Where a client may call: a relative base URL (the sandbox) resolves against `origin` (default: this app),
 * which is then trusted; any other base URL goes through the outbound guard, even one naming this app.
 */
function resolveAccount(
  account: { baseUrl: string; platformUserId: string; credentials: AccountCredentials },
  options: ClientOptions,
): ResolvedAccount {
  const sandboxPath = /^\/(?![/\\])/.test(account.baseUrl);
  const origin = options.origin ?? appOrigin();
  const outbound: OutboundPolicy = sandboxPath
    ? { trustedOrigin: origin }
    : { baseUrlProblem: baseUrlRefusal(account.baseUrl) ?? undefined };
  const baseUrl = sandboxPath ? resolveBaseUrl(account.baseUrl, origin) : account.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl,
    sandbox: sandboxPath,
    platformUserId: account.platformUserId,
    accessToken: account.credentials.accessToken,
    credentials: account.credentials,
    outbound,
  };
}

/** A client for one account, made by its network's registry entry. */
export function createProviderClient(account: ProviderAccount, options: ClientOptions = {}): ProviderClient {
  const credentials = account.credentials ?? { accessToken: account.accessToken };
  return providerDefinition(account.provider).createClient(
    resolveAccount({ ...account, credentials }, options),
    options.transport,
  );
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
  options: { encryptionKey: string } & ClientOptions,
): ProviderClient {
  const credentials = openCredentials(account.credentialsEncrypted, options.encryptionKey, account.id);
  return createProviderClient(
    {
      provider: account.provider,
      baseUrl: account.baseUrl,
      platformUserId: account.platformUserId,
      accessToken: credentials.accessToken,
      credentials,
    },
    options,
  );
}

/** A stored account as its registry entry's `refresh` takes it: credentials opened, base URL and guard resolved. */
export function resolvedAccountFor(
  account: { id: string; baseUrl: string; platformUserId: string; credentialsEncrypted: string },
  options: { encryptionKey: string } & ClientOptions,
): ResolvedAccount {
  const credentials = openCredentials(account.credentialsEncrypted, options.encryptionKey, account.id);
  return resolveAccount({ ...account, credentials }, options);
}

/** Tools for a network's connection check (`verify`): clients for a would-be account. */
export function connectTools(provider: ProviderName, options: ClientOptions = {}): ConnectTools {
  return {
    send: options.transport,
    resolve: (account) => resolveAccount({ platformUserId: '', ...account }, options),
    client: (account) =>
      providerDefinition(provider).createClient(
        resolveAccount({ platformUserId: '', ...account }, options),
        options.transport,
      ),
  };
}

/** The connection check of a connect form (already parsed by the network's `connectSchema`). */
export function verifyAccount(
  provider: ProviderName,
  input: Record<string, string>,
  options: ClientOptions = {},
): Promise<VerifyResult> {
  return providerDefinition(provider).verify(input, connectTools(provider, options));
}
