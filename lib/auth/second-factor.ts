import type { Executor } from '@/db/client';
import { countPasskeys } from '@/db/queries/passkeys';
import { hasEnabledTotp, twoFactorRequiredForUser } from '@/db/queries/two-factor';

/** Which second factors a user has: sign-in asks for one after the password when any is set. */
export type SecondFactors = { totp: boolean; passkeys: number };

export async function secondFactorsOf(db: Executor, userId: string): Promise<SecondFactors> {
  return { totp: await hasEnabledTotp(db, { userId }), passkeys: await countPasskeys(db, { userId }) };
}

export const hasSecondFactor = (factors: SecondFactors) => factors.totp || factors.passkeys > 0;

/** A member of a workspace that requires two-factor sign-in, without any second factor yet: sent to enrol. */
export async function twoFactorEnrolmentDue(db: Executor, userId: string) {
  if (!(await twoFactorRequiredForUser(db, { userId }))) return false;
  return !hasSecondFactor(await secondFactorsOf(db, userId));
}
