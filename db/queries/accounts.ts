import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../client';
import { socialAccounts, type NewSocialAccount } from '../schema';

/** What may leave the server: no credentials, only the token's last four characters. */
export const publicAccountColumns = {
  id: socialAccounts.id,
  provider: socialAccounts.provider,
  sandbox: socialAccounts.sandbox,
  handle: socialAccounts.handle,
  displayName: socialAccounts.displayName,
  platformUserId: socialAccounts.platformUserId,
  baseUrl: socialAccounts.baseUrl,
  tokenLast4: socialAccounts.tokenLast4,
  disconnectedAt: socialAccounts.disconnectedAt,
  createdAt: socialAccounts.createdAt,
};

export async function listAccounts(db: Executor, params: { workspaceId: string; includeDisconnected?: boolean }) {
  return db
    .select(publicAccountColumns)
    .from(socialAccounts)
    .where(and(
      eq(socialAccounts.workspaceId, params.workspaceId),
      params.includeDisconnected ? undefined : isNull(socialAccounts.disconnectedAt),
    ))
    .orderBy(asc(socialAccounts.handle));
}

export async function upsertAccount(db: Executor, params: NewSocialAccount) {
  const [row] = await db
    .insert(socialAccounts)
    .values(params)
    .onConflictDoNothing({ target: [socialAccounts.workspaceId, socialAccounts.provider, socialAccounts.baseUrl, socialAccounts.platformUserId] })
    .returning(publicAccountColumns);
  return row ?? null;
}
