import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import type { Executor } from '@/db/client';
import { markLoginAttemptSucceeded } from '@/db/queries/login-attempts';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { getMembershipsForUser } from '@/db/queries/workspaces';
import { getEnv } from '@/lib/env';
import {
  parseAuthenticationResponse,
  relyingParty,
  secondFactorOptions,
  verifySecondFactorPasskey,
  type RelyingParty,
} from './passkeys';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password';
import { upgradePasswordHash } from './rehash';
import { hasSecondFactor, secondFactorsOf } from './second-factor';
import { SIGN_IN_ERRORS, twoFactorRequiredError } from './sign-in-errors';
import { takeSignInAttempt } from './throttle';
import { verifySecondFactor } from './two-factor';

export { SIGN_IN_ERRORS } from './sign-in-errors';

const passwordSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
});
const credentialsSchema = passwordSchema.extend({
  // An authenticator code or a recovery code; the form sends "" before it knows one is needed.
  code: z.string().trim().max(64).optional(),
  // A passkey's assertion (JSON) as the second factor, over a challenge from passkeySecondFactorOptions.
  passkey: z.string().max(65_536).optional(),
});

export type SignedInUser = {
  id: string;
  email: string;
  name: string;
  workspaceId: string | null;
  role: string | null;
  sessionVersion: number;
};

type SignInOptions = { encryptionKey?: string; rp?: RelyingParty };

/**
 * Checks email + password with one generic failure (no user enumeration). Refuses further tries after too
 * many failures for the same email and IP (or IPv6 /64), or from one of them across emails; failures for an email from
 * everywhere only slow its tries down (lib/auth/throttle.ts).
 */
export async function authenticate(
  db: Executor,
  input: unknown,
  ip: string,
  options: SignInOptions = {},
): Promise<SignedInUser> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) throw new Error(SIGN_IN_ERRORS.invalid);
  const { email, password, code, passkey } = parsed.data;
  const checked = await checkPassword(db, { email, password, ip });
  if (!checked.ok) throw new Error(checked.error);
  const { user, attemptId } = checked;
  await checkSecondFactor(db, { userId: user.id, code, passkey, attemptId, ...options });
  await markLoginAttemptSucceeded(db, { attemptId });
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

export type PasskeySecondFactorStart =
  { ok: true; options: PublicKeyCredentialRequestOptionsJSON } | { ok: false; error: string };

/**
 * The passkey prompt's options for the second step after a password: the password is checked again under the same
 * limits, so a challenge (naming the account's credentials) goes only to someone who knows it; anyone else gets the
 * sign-in's one generic error. The sign-in then sends email, password and the assertion (authenticate).
 */
export async function passkeySecondFactorOptions(
  db: Executor,
  input: unknown,
  ip: string,
  options: { rp?: RelyingParty } = {},
): Promise<PasskeySecondFactorStart> {
  const parsed = passwordSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: SIGN_IN_ERRORS.invalid };
  const checked = await checkPassword(db, { ...parsed.data, ip });
  if (!checked.ok) return checked;
  const challenge = await secondFactorOptions(db, { userId: checked.user.id, rp: options.rp ?? relyingParty() });
  // The password was right: not a failed attempt, whether or not a passkey follows.
  await markLoginAttemptSucceeded(db, { attemptId: checked.attemptId });
  return challenge ? { ok: true, options: challenge } : { ok: false, error: SIGN_IN_ERRORS.noPasskey };
}

/**
 * Takes the sign-in limit (counted and recorded as a failure) before the password is checked, so parallel guesses
 * share it; the attempt stays failed until the caller marks it. Always runs scrypt: a missing user costs the same time
 * as a wrong password.
 */
async function checkPassword(db: Executor, params: { email: string; password: string; ip: string }) {
  const ticket = await takeSignInAttempt(db, { email: params.email, ip: params.ip });
  if (ticket.refused) return { ok: false as const, error: SIGN_IN_ERRORS.throttled };
  if (ticket.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, ticket.delayMs));

  const user = await getUserCredentialsByEmail(db, { email: params.email });
  const ok = await verifyPassword(params.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return { ok: false as const, error: SIGN_IN_ERRORS.invalid };
  return { ok: true as const, user, attemptId: ticket.attemptId };
}

/**
 * With a second factor, no session before it is proved: nothing sent → TwoFactorRequired naming the factors (the
 * password was right, so the attempt is not a failure); a passkey that is not this user's, over a challenge not issued
 * to them or used already → PasskeyRefused; a wrong or replayed code → InvalidCode. Refusals stay counted as failed.
 */
async function checkSecondFactor(
  db: Executor,
  params: { userId: string; code?: string; passkey?: string; attemptId: number } & SignInOptions,
) {
  const factors = await secondFactorsOf(db, params.userId);
  if (!hasSecondFactor(factors)) return;
  if (params.passkey) {
    const response = parseAuthenticationResponse(params.passkey);
    const rp = params.rp ?? relyingParty();
    if (!response || !(await verifySecondFactorPasskey(db, { userId: params.userId, response, rp }))) {
      throw new Error(SIGN_IN_ERRORS.passkey);
    }
    return;
  }
  if (!params.code) {
    await markLoginAttemptSucceeded(db, { attemptId: params.attemptId });
    throw new Error(twoFactorRequiredError(factors));
  }
  const encryptionKey = params.encryptionKey ?? getEnv().APP_ENCRYPTION_KEY;
  if (!(await verifySecondFactor(db, { userId: params.userId, encryptionKey, code: params.code }))) {
    throw new Error(SIGN_IN_ERRORS.wrongCode);
  }
}
