import { z } from 'zod';
import type { Executor } from '@/db/client';
import { getUserCredentialsByEmail, recordLoginAttempt } from '@/db/queries/users';
import { getMembershipsForUser } from '@/db/queries/workspaces';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';
import { upgradePasswordHash } from './rehash';
import { loginLimits } from './throttle';

export const SIGN_IN_ERRORS = {
  invalid: 'InvalidCredentials',
  throttled: 'TooManyAttempts',
} as const;

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
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
 * many failures for the same email and IP, or from one IP across emails; failures for an email from
 * everywhere only slow its tries down (lib/auth/throttle.ts).
 */
export async function authenticate(db: Executor, input: unknown, ip: string): Promise<SignedInUser> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw new Error(SIGN_IN_ERRORS.invalid);
  const { email, password } = parsed.data;
  const limits = await loginLimits(db, { email, ip });
  if (limits.refused) throw new Error(SIGN_IN_ERRORS.throttled);
  if (limits.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, limits.delayMs));

  const user = await getUserCredentialsByEmail(db, { email });
  // Always run scrypt so a missing user costs the same time as a wrong password.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  await recordLoginAttempt(db, { email, ip, succeeded: Boolean(user && ok) });
  if (!user || !ok) throw new Error(SIGN_IN_ERRORS.invalid);
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
