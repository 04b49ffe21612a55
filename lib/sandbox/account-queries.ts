import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { socialAccounts } from '@/db/schema';
import { sandboxAccountColumns } from '@/sandbox/db/queries/store';
import { sandboxAccounts } from '@/sandbox/db/schema';

// The product's sandbox accounts joined to the sandbox's own rows (same platform and user id): the only queries that
// read both sides, so they live in the glue and the sandbox/ wing reads nothing of the product's.
const sameIdentity = and(
  sql`${sandboxAccounts.platform}::text = ${socialAccounts.provider}::text`,
  eq(sandboxAccounts.platformUserId, socialAccounts.platformUserId),
);

/** A workspace's sandbox accounts (product id, handle) joined to the sandbox's own account rows. */
export async function listWorkspaceSandboxAccounts(db: Executor, params: { workspaceId: string }) {
  return db
    .select({
      accountId: socialAccounts.id,
      handle: socialAccounts.handle,
      disconnectedAt: socialAccounts.disconnectedAt,
      sandboxAccount: sandboxAccountColumns,
    })
    .from(socialAccounts)
    .innerJoin(sandboxAccounts, sameIdentity)
    .where(and(eq(socialAccounts.workspaceId, params.workspaceId), eq(socialAccounts.sandbox, true)))
    .orderBy(asc(socialAccounts.handle));
}

/**
 * Product sandbox accounts the sandbox has not registered yet (e.g. seeded before the sandbox existed).
 * Their sealed tokens are read only to register the token's hash on the sandbox side.
 */
export async function listUnregisteredProductSandboxAccounts(db: Executor) {
  return db
    .select({
      id: socialAccounts.id,
      provider: socialAccounts.provider,
      platformUserId: socialAccounts.platformUserId,
      handle: socialAccounts.handle,
      displayName: socialAccounts.displayName,
      credentialsEncrypted: socialAccounts.credentialsEncrypted,
    })
    .from(socialAccounts)
    .leftJoin(sandboxAccounts, sameIdentity)
    .where(and(eq(socialAccounts.sandbox, true), isNull(sandboxAccounts.id)));
}
