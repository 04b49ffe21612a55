import { z } from 'zod';
import type { Executor } from '@/db/client';
import { markLoginAttemptSucceeded } from '@/db/queries/login-attempts';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { getMembershipsForUser } from '@/db/queries/workspaces';
import { getEnv } from '@/lib/env';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';
import { upgradePasswordHash } from './rehash';
import { secondFactorsOf } from './second-factor';
import { takeSignInAttempt } from './throttle';
import { verifySecondFactor } from './two-factor';

export const SIGN_IN_ERRORS = {
  invalid: 'InvalidCredentials',
  throttled: 'TooManyAttempts',
  /** The password was right; the user has a second factor and sent no code: the form asks for one. */
  twoFactorRequired: 'TwoFactorRequired',
  /** The password was right, the code was not (or was used already): counted as a failed attempt. */
  wrongCode: 'InvalidCode',
  passkey: 'PasskeyRefused',
} as const;

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
  // An authenticator code or a recovery code; the form sends "" before it knows one is needed.
  code: z.string().trim().max(64).optional(),
});

export type SignedInUser = {
  id: string;
  email: string;
  name: string;
  workspaceId: string | null;
  role: string | null;
  sessionVersion: number;
};

/**
 * Checks email + password with one generic failure (no user enumeration). Refuses further tries after too
 * many failures for the same email and IP (or IPv6 /64), or from one of them across emails; failures for an email from
 * everywhere only slow its tries down (lib/auth/throttle.ts).
 */
export async function authenticate(
  db: Executor,
  input: unknown,
  ip: string,
  options: { encryptionKey?: string } = {},
): Promise<SignedInUser> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw new Error(SIGN_IN_ERRORS.invalid);
  const { email, password, code } = parsed.data;
  // Taken (counted and recorded as a failure) before the password is checked: parallel guesses share the limit.
  const ticket = await takeSignInAttempt(db, { email, ip });
  if (ticket.refused) throw new Error(SIGN_IN_ERRORS.throttled);
  if (ticket.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, ticket.delayMs));

  const user = await getUserCredentialsByEmail(db, { email });
  // Always run scrypt so a missing user costs the same time as a wrong password.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) throw new Error(SIGN_IN_ERRORS.invalid);
  await checkSecondFactor(db, { userId: user.id, code, attemptId: ticket.attemptId, ...options });
  await markLoginAttemptSucceeded(db, { attemptId: ticket.attemptId });
  await upgradePasswordHash(db, { userId: user.id, password, stored: user.passwordHash! });

  const [first] = await getMembershipsForUser(db, { userId: user.id });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    workspaceId: first?.id ?? null,
    role: first?.role ?? null,
    sessionVersion: user.sessionVersion,
  };
}

/**
 * With a second factor, no session before a code: none sent → TwoFactorRequired (the password was right, so the
 * attempt is not a failure); a wrong or replayed code → InvalidCode, and the attempt stays counted as failed.
 */
async function checkSecondFactor(
  db: Executor,
  params: { userId: string; code: string | undefined; attemptId: number; encryptionKey?: string },
) {
  const factors = await secondFactorsOf(db, params.userId);
  if (!factors.totp) return;
  if (!params.code) {
    await markLoginAttemptSucceeded(db, { attemptId: params.attemptId });
    throw new Error(SIGN_IN_ERRORS.twoFactorRequired);
  }
  const encryptionKey = params.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY;
  if (!(await verifySecondFactor(db, { userId: params.userId, encryptionKey, code: params.code }))) {
    throw new Error(SIGN_IN_ERRORS.wrongCode);
  }
}
