import type { Executor } from '@/db/client';
import { listLegacySealedAccounts, replaceSealedCredentials } from '@/db/queries/accounts';
import { logger } from '@/lib/logging/logger';
import { openCredentials, sealCredentials } from './credentials';

/**
 * One-off migration, run at every start (cheap when done): credentials sealed as v1 (no associated data)
 * are opened and sealed again as v2 bound to their account id. A value that does not open (another
 * key) is left as it is and counted; a row reconnected meanwhile is not overwritten.
 */
export async function resealLegacyCredentials(
  db: Executor,
  encryptionKey: string,
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  for (const row of await listLegacySealedAccounts(db)) {
    let credentials;
    try {
      credentials = openCredentials(row.credentialsEncrypted, encryptionKey, row.id);
    } catch {
      unreadable++;
      continue;
    }
    const next = sealCredentials(credentials, encryptionKey, row.id).credentialsEncrypted;
    if (await replaceSealedCredentials(db, { accountId: row.id, previous: row.credentialsEncrypted, next })) resealed++;
  }
  if (resealed > 0 || unreadable > 0)
    logger.info({ resealed, unreadable }, 'account credentials re-sealed with their account id');
  return { resealed, unreadable };
}
