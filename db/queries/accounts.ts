import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, like } from 'drizzle-orm';
import type { Executor } from '../client';
import { socialAccounts, type NewSocialAccount } from '../schema';

/** What may leave the server: no credentials, only the token's last four characters and its health. */
export const publicAccountColumns = {
  id: socialAccounts.id,
  provider: socialAccounts.provider,
  sandbox: socialAccounts.sandbox,
  handle: socialAccounts.handle,
  displayName: socialAccounts.displayName,
  profileUrl: socialAccounts.profileUrl,
  platformUserId: socialAccounts.platformUserId,
  baseUrl: socialAccounts.baseUrl,
  tokenLast4: socialAccounts.tokenLast4,
  tokenStatus: socialAccounts.tokenStatus,
  tokenExpiresAt: socialAccounts.tokenExpiresAt,
  disconnectedAt: socialAccounts.disconnectedAt,
  createdAt: socialAccounts.createdAt,
};

export async function listAccounts(db: Executor, params: { workspaceId: string; includeDisconnected?: boolean }) {
  return db
    .select(publicAccountColumns)
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.workspaceId, params.workspaceId),
        params.includeDisconnected ? undefined : isNull(socialAccounts.disconnectedAt),
      ),
    )
    .orderBy(asc(socialAccounts.handle));
}

export async function upsertAccount(db: Executor, params: NewSocialAccount) {
  const [row] = await db
    .insert(socialAccounts)
    .values(params)
    .onConflictDoNothing({
      target: [
        socialAccounts.workspaceId,
        socialAccounts.provider,
        socialAccounts.baseUrl,
        socialAccounts.platformUserId,
      ],
    })
    .returning(publicAccountColumns);
  return row ?? null;
}

/**
 * Connects an account, or reconnects one disconnected earlier or whose token went bad (same platform
 * identity): the row, and with it every delivery's history, is kept; new credentials replace the old ones and
 * its token health is `ok` again, so deliveries held for it publish (docs/architecture.md#delivery-states).
 */
export async function connectAccount(
  db: Executor,
  params: Omit<NewSocialAccount, 'id' | 'credentialsEncrypted' | 'tokenLast4'>,
  seal: (accountId: string) => { credentialsEncrypted: string; tokenLast4: string; tokenExpiresAt?: Date | null },
) {
  const identity = [
    socialAccounts.workspaceId,
    socialAccounts.provider,
    socialAccounts.baseUrl,
    socialAccounts.platformUserId,
  ] as const;
  // Credentials are sealed for the row's id, so the id must be known first: the existing row's, or a new one.
  // The update only applies when the row is the one sealed for (a row created in between makes us retry).
  for (let attempt = 0; attempt < 3; attempt++) {
    const [existing] = await db
      .select({ id: socialAccounts.id })
      .from(socialAccounts)
      .where(
        and(
          eq(socialAccounts.workspaceId, params.workspaceId),
          eq(socialAccounts.provider, params.provider),
          eq(socialAccounts.baseUrl, params.baseUrl),
          eq(socialAccounts.platformUserId, params.platformUserId),
        ),
      );
    const id = existing?.id ?? randomUUID();
    const sealed = seal(id);
    const [row] = await db
      .insert(socialAccounts)
      .values({ ...params, id, ...sealed })
      .onConflictDoUpdate({
        target: [...identity],
        set: {
          handle: params.handle,
          displayName: params.displayName ?? null,
          profileUrl: params.profileUrl ?? null,
          credentialsEncrypted: sealed.credentialsEncrypted,
          tokenLast4: sealed.tokenLast4,
          disconnectedAt: null,
          tokenStatus: 'ok',
          tokenProblem: null,
          tokenExpiresAt: sealed.tokenExpiresAt ?? params.tokenExpiresAt ?? null,
          // A refresh still running for the old token is fenced by the credentials it read, not by this lease.
          tokenRefreshLeaseUntil: null,
        },
        setWhere: eq(socialAccounts.id, id),
      })
      .returning(publicAccountColumns);
    if (row) return row;
  }
  throw new Error('connectAccount: the account row kept changing under us');
}

/** Every account whose credentials were sealed before associated data existed (v1). */
export async function listLegacySealedAccounts(db: Executor) {
  return db
    .select({ id: socialAccounts.id, credentialsEncrypted: socialAccounts.credentialsEncrypted })
    .from(socialAccounts)
    .where(like(socialAccounts.credentialsEncrypted, 'v1.%'));
}

/** Replaces sealed credentials only if they are still the ones read (a reconnect meanwhile wins). */
export async function replaceSealedCredentials(
  db: Executor,
  params: { accountId: string; previous: string; next: string },
) {
  const [row] = await db
    .update(socialAccounts)
    .set({ credentialsEncrypted: params.next })
    .where(and(eq(socialAccounts.id, params.accountId), eq(socialAccounts.credentialsEncrypted, params.previous)))
    .returning({ id: socialAccounts.id });
  return Boolean(row);
}

/** Server-side only (publishing, connection checks): includes the sealed credentials. Never send this row to a browser. */
export async function getAccountWithCredentials(db: Executor, params: { workspaceId: string; accountId: string }) {
  const [row] = await db
    .select({
      ...publicAccountColumns,
      workspaceId: socialAccounts.workspaceId,
      credentialsEncrypted: socialAccounts.credentialsEncrypted,
    })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.id, params.accountId), eq(socialAccounts.workspaceId, params.workspaceId)));
  return row ?? null;
}
