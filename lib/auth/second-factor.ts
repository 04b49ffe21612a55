import type { Executor } from '@/db/client';
import { hasEnabledTotp, twoFactorRequiredForUser } from '@/db/queries/two-factor';

/** Which second factors a user has: sign-in asks for one when any is set; passkeys plug in here. */
export type SecondFactors = { totp: boolean; passkeys: number };

export async function secondFactorsOf(db: Executor, userId: string): Promise<SecondFactors> {
  const totp = await hasEnabledTotp(db, { userId });
  // Passkeys (WebAuthn) count here once their table exists; until then no user has one.
  return { totp, passkeys: 0 };
}

export const hasSecondFactor = (factors: SecondFactors) => factors.totp || factors.passkeys > 0;

/** A member of a workspace that requires two-factor sign-in, without any second factor yet: sent to enrol. */
export async function twoFactorEnrolmentDue(db: Executor, userId: string) {
  if (!(await twoFactorRequiredForUser(db, { userId }))) return false;
  return !hasSecondFactor(await secondFactorsOf(db, userId));
}
