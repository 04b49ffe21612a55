import { and, count, eq, isNotNull, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { memberships, recoveryCodes, totpFactors, totpUsedSteps, workspaces } from '../schema';

/** The user's TOTP row (enabled or still enrolling), sealed secret included: for the server's checks only. */
export async function getTotpFactor(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ secretSealed: totpFactors.secretSealed, enabledAt: totpFactors.enabledAt })
    .from(totpFactors)
    .where(eq(totpFactors.userId, params.userId));
  return row ?? null;
}

export async function hasEnabledTotp(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, params.userId), isNotNull(totpFactors.enabledAt)));
  return Boolean(row);
}

/** Stores a new secret to enrol with; never replaces an enabled one (false then). */
export async function savePendingTotp(db: Executor, params: { userId: string; secretSealed: string }) {
  const saved = await db
    .insert(totpFactors)
    .values({ userId: params.userId, secretSealed: params.secretSealed })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secretSealed: params.secretSealed, createdAt: sql`now()` },
      setWhere: isNull(totpFactors.enabledAt),
    })
    .returning({ userId: totpFactors.userId });
  return saved.length > 0;
}

/**
 * Spends one TOTP step: the primary key (user_id, step) lets exactly one of any number of parallel uses
 * of the same code through. False when the step was already used.
 */
export async function spendTotpStep(db: Executor, params: { userId: string; step: number }) {
  const used = await db
    .insert(totpUsedSteps)
    .values({ userId: params.userId, step: params.step })
    .onConflictDoNothing()
    .returning({ step: totpUsedSteps.step });
  return used.length > 0;
}

/**
 * Turns TOTP on with a confirmed code's step and replaces the recovery codes, in one transaction: false (nothing
 * written) when the step was used already or the enrolment is no longer pending (enabled in another tab).
 */
export async function enableTotp(db: Database, params: { userId: string; step: number; codeHashes: string[] }) {
  return db
    .transaction(async (tx) => {
      const enabled = await tx
        .update(totpFactors)
        .set({ enabledAt: sql`now()` })
        .where(and(eq(totpFactors.userId, params.userId), isNull(totpFactors.enabledAt)))
        .returning({ userId: totpFactors.userId });
      if (enabled.length === 0) return false;
      // The confirming code is spent too: it cannot sign in a second time.
      if (!(await spendTotpStep(tx, params))) tx.rollback();
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, params.userId));
      await tx.insert(recoveryCodes).values(params.codeHashes.map((codeHash) => ({ userId: params.userId, codeHash })));
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return false;
      throw error;
    });
}

/** Spends one recovery code in one statement: a code used twice at once signs in once. */
export async function spendRecoveryCode(db: Executor, params: { userId: string; codeHash: string }) {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, params.userId),
        eq(recoveryCodes.codeHash, params.codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, params.userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Turns TOTP off: the secret and the recovery codes go (used steps stay until the user goes). */
export async function deleteTotp(db: Database, params: { userId: string }) {
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, params.userId));
    await tx.delete(totpFactors).where(eq(totpFactors.userId, params.userId));
  });
}

/** Whether any workspace the user belongs to (not deleted) requires two-factor sign-in. */
export async function twoFactorRequiredForUser(db: Executor, params: { userId: string }) {
  const [row] = await db
    .select({ id: workspaces.id })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(
      and(eq(memberships.userId, params.userId), eq(workspaces.requireTwoFactor, true), isNull(workspaces.deletedAt)),
    )
    .limit(1);
  return Boolean(row);
}

export async function setWorkspaceRequireTwoFactor(db: Executor, params: { workspaceId: string; required: boolean }) {
  await db.update(workspaces).set({ requireTwoFactor: params.required }).where(eq(workspaces.id, params.workspaceId));
}

export async function getWorkspaceRequireTwoFactor(db: Executor, params: { workspaceId: string }) {
  const [row] = await db
    .select({ required: workspaces.requireTwoFactor })
    .from(workspaces)
    .where(eq(workspaces.id, params.workspaceId));
  return row?.required ?? false;
}
