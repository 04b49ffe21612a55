import { randomUUID } from 'node:crypto';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';

/** What is sealed in social_accounts.credentials_encrypted. */
export type AccountCredentials = { accessToken: string };

/**
 * Seals credentials for one account row: its id is the associated data, so the sealed value opens only
 * on that row. Without an id, a new one is made and returned for the insert (`...sealCredentials(...)`).
 */
export function sealCredentials(
  credentials: AccountCredentials,
  encryptionKey: string,
  accountId: string = randomUUID(),
): { id: string; credentialsEncrypted: string; tokenLast4: string } {
  return {
    id: accountId,
    credentialsEncrypted: encryptSecret(JSON.stringify(credentials), encryptionKey, accountId),
    tokenLast4: credentials.accessToken.slice(-4),
  };
}

export function openCredentials(
  credentialsEncrypted: string,
  encryptionKey: string,
  accountId: string,
): AccountCredentials {
  const parsed = JSON.parse(
    decryptSecret(credentialsEncrypted, encryptionKey, accountId),
  ) as Partial<AccountCredentials>;
  if (typeof parsed.accessToken !== 'string') throw new Error('Sealed credentials have no access token');
  return { accessToken: parsed.accessToken };
}
