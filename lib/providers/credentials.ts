import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';

/** What is sealed in social_accounts.credentials_encrypted. */
export type AccountCredentials = { accessToken: string };

export function sealCredentials(credentials: AccountCredentials, encryptionKey: string): { credentialsEncrypted: string; tokenLast4: string } {
  return { credentialsEncrypted: encryptSecret(JSON.stringify(credentials), encryptionKey), tokenLast4: credentials.accessToken.slice(-4) };
}

export function openCredentials(credentialsEncrypted: string, encryptionKey: string): AccountCredentials {
  const parsed = JSON.parse(decryptSecret(credentialsEncrypted, encryptionKey)) as Partial<AccountCredentials>;
  if (typeof parsed.accessToken !== 'string') throw new Error('Sealed credentials have no access token');
  return { accessToken: parsed.accessToken };
}
