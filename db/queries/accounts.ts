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

/**
 * Connects an account, or reconnects one disconnected earlier (same platform identity): the row, and
 * with it every delivery's history, is kept; new credentials replace the old ones.
 */
export async function connectAccount(db: Executor, params: NewSocialAccount) {
  const [row] = await db
    .insert(socialAccounts)
    .values(params)
    .onConflictDoUpdate({
      target: [socialAccounts.workspaceId, socialAccounts.provider, socialAccounts.baseUrl, socialAccounts.platformUserId],
      set: {
        handle: params.handle,
        displayName: params.displayName ?? null,
        credentialsEncrypted: params.credentialsEncrypted,
        tokenLast4: params.tokenLast4,
        disconnectedAt: null,
      },
    })
    .returning(publicAccountColumns);
  return row!;
}

/** Disconnect keeps the row (deliveries reference it); it only stops new posts to it. */
export async function disconnectAccount(db: Executor, params: { workspaceId: string; accountId: string }) {
  const [row] = await db
    .update(socialAccounts)
    .set({ disconnectedAt: new Date() })
    .where(and(eq(socialAccounts.id, params.accountId), eq(socialAccounts.workspaceId, params.workspaceId), isNull(socialAccounts.disconnectedAt)))
    .returning({ id: socialAccounts.id });
  return row ?? null;
}

/** Server-side only (publishing, connection checks): includes the sealed credentials. Never send this row to a browser. */
export async function getAccountWithCredentials(db: Executor, params: { workspaceId: string; accountId: string }) {
  const [row] = await db
    .select({ ...publicAccountColumns, workspaceId: socialAccounts.workspaceId, credentialsEncrypted: socialAccounts.credentialsEncrypted })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.id, params.accountId), eq(socialAccounts.workspaceId, params.workspaceId)));
  return row ?? null;
}
