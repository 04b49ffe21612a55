import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxAccounts, sandboxOAuthCodes, sandboxOAuthTokens } from '@/sandbox/db/schema';
import type { ProviderName } from '@/db/schema';

// The sandbox's OAuth server state (schema `sandbox`): codes and tokens, by hash only. Every "use" is one
// atomic update, so of two concurrent uses of a code or a refresh token exactly one wins.

export async function insertSandboxOAuthCode(db: Executor, params: typeof sandboxOAuthCodes.$inferInsert) {
  await db.insert(sandboxOAuthCodes).values(params);
}

/** Marks the code used; the code's row when this call was its first use, else null. */
export async function redeemSandboxOAuthCode(db: Executor, params: { codeHash: string }) {
  const [row] = await db
    .update(sandboxOAuthCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(sandboxOAuthCodes.codeHash, params.codeHash), isNull(sandboxOAuthCodes.usedAt)))
    .returning();
  return row ?? null;
}

export async function getSandboxOAuthCode(db: Executor, params: { codeHash: string }) {
  const [row] = await db.select().from(sandboxOAuthCodes).where(eq(sandboxOAuthCodes.codeHash, params.codeHash));
  return row ?? null;
}

export async function insertSandboxOAuthTokens(
  db: Executor,
  params: { rows: (typeof sandboxOAuthTokens.$inferInsert)[] },
) {
  if (params.rows.length > 0) await db.insert(sandboxOAuthTokens).values(params.rows);
}

/** Spends a live refresh token; its row when this call spent it, else null. */
export async function spendSandboxRefreshToken(db: Executor, params: { tokenHash: string }) {
  const [row] = await db
    .update(sandboxOAuthTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(sandboxOAuthTokens.tokenHash, params.tokenHash),
        eq(sandboxOAuthTokens.kind, 'refresh'),
        isNull(sandboxOAuthTokens.usedAt),
        isNull(sandboxOAuthTokens.revokedAt),
      ),
    )
    .returning();
  return row ?? null;
}

export async function getSandboxOAuthToken(db: Executor, params: { tokenHash: string }) {
  const [row] = await db.select().from(sandboxOAuthTokens).where(eq(sandboxOAuthTokens.tokenHash, params.tokenHash));
  return row ?? null;
}

export async function revokeSandboxOAuthFamily(db: Executor, params: { familyId: string }) {
  await db
    .update(sandboxOAuthTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(sandboxOAuthTokens.familyId, params.familyId), isNull(sandboxOAuthTokens.revokedAt)));
}

/**
 * Revokes every token of the account, its own bearer token included (replaced by an unknown one), as a
 * user revoking the app's access on the platform would. Returns how many OAuth tokens were live.
 */
export async function revokeSandboxAccountTokens(db: Executor, params: { accountId: string; newTokenHash: string }) {
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(sandboxOAuthTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(sandboxOAuthTokens.accountId, params.accountId), isNull(sandboxOAuthTokens.revokedAt)))
      .returning({ tokenHash: sandboxOAuthTokens.tokenHash });
    await tx
      .update(sandboxAccounts)
      .set({ tokenHash: params.newTokenHash })
      .where(eq(sandboxAccounts.id, params.accountId));
    return revoked.length;
  });
}

/** The account a live (unexpired, unrevoked) OAuth access token of this platform belongs to. */
export async function getSandboxAccountByAccessToken(
  db: Executor,
  params: { platform: ProviderName; tokenHash: string },
) {
  const [row] = await db
    .select({
      id: sandboxAccounts.id,
      platform: sandboxAccounts.platform,
      platformUserId: sandboxAccounts.platformUserId,
      handle: sandboxAccounts.handle,
      displayName: sandboxAccounts.displayName,
    })
    .from(sandboxOAuthTokens)
    .innerJoin(sandboxAccounts, eq(sandboxAccounts.id, sandboxOAuthTokens.accountId))
    .where(
      and(
        eq(sandboxOAuthTokens.tokenHash, params.tokenHash),
        eq(sandboxOAuthTokens.kind, 'access'),
        isNull(sandboxOAuthTokens.revokedAt),
        gt(sandboxOAuthTokens.expiresAt, sql`now()`),
        eq(sandboxAccounts.platform, params.platform),
      ),
    );
  return row ?? null;
}
