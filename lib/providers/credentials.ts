import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { decryptSecret, encryptSecret } from '@/lib/crypto/secret-box';
import type { AccountCredentials } from './types';

export type { AccountCredentials } from './types';

const credentialsSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: z.string().optional(),
  identifier: z.string().optional(),
  appPassword: z.string().optional(),
}) satisfies z.ZodType<AccountCredentials>;

/**
 * Seals credentials for one account row: its id is the associated data, so the sealed value opens only
 * on that row. Without an id, a new one is made and returned for the insert (`...sealCredentials(...)`).
 */
export function sealCredentials(
  credentials: AccountCredentials,
  encryptionKey: string,
  accountId: string = randomUUID(),
): { id: string; credentialsEncrypted: string; tokenLast4: string; tokenExpiresAt: Date | null } {
  return {
    id: accountId,
    credentialsEncrypted: encryptSecret(JSON.stringify(credentials), encryptionKey, accountId),
    tokenLast4: credentials.accessToken.slice(-4),
    // Stored beside the sealed value so the refresh job can find what expires without opening it.
    tokenExpiresAt: credentials.expiresAt ? new Date(credentials.expiresAt) : null,
  };
}

export function openCredentials(
  credentialsEncrypted: string,
  encryptionKey: string,
  accountId: string,
): AccountCredentials {
  const parsed = credentialsSchema.safeParse(JSON.parse(decryptSecret(credentialsEncrypted, encryptionKey, accountId)));
  if (!parsed.success) throw new Error('Sealed credentials have no access token');
  return parsed.data;
}
