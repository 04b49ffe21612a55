import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { setWorkspaceRequireTwoFactor } from '@/db/queries/two-factor';
import { upsertUser } from '@/db/queries/users';
import { addMembership, upsertWorkspace } from '@/db/queries/workspaces';
import { loginAttempts, recoveryCodes, totpFactors } from '@/db/schema';
import { createTestDatabase } from '@/testing/db/test-database';
import { authenticate, SIGN_IN_ERRORS } from './credentials';
import { hashPassword } from './password';
import { twoFactorEnrolmentDue } from './second-factor';
import { TOTP_PERIOD_SECONDS } from './totp';
import { confirmTotp, disableTotp, pendingTotpSecret } from './two-factor';

const PASSWORD = 'a-long-test-password-1';
const encryptionKey = randomBytes(32).toString('base64');
const { db } = await createTestDatabase({ max: 12 });
const passwordHash = await hashPassword(PASSWORD);

let ipCounter = 0;
const nextIp = () => `10.9.0.${++ipCounter}`;

async function newUser() {
  const email = `u-${randomUUID()}@two-factor.test`;
  const user = await upsertUser(db, { email, name: 'Two Factor', passwordHash });
  return { ...user, userId: user.id, encryptionKey };
}

/** The code an authenticator app shows `steps` periods from now. */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * TOTP_PERIOD_SECONDS * 1000,
  });

/**
 * A user with TOTP on and their recovery codes. Confirmed with the previous step's code (still accepted), so the
 * tests can sign in with the current and the next step's codes, which stay valid across a step boundary.
 */
async function enrolled() {
  const user = await newUser();
  const secret = (await pendingTotpSecret(db, user))!;
  const confirmed = await confirmTotp(db, { ...user, code: codeAt(secret, -1) });
  if (!confirmed.ok) throw new Error('enrolment failed');
  return { ...user, secret, recoveryCodes: confirmed.recoveryCodes };
}

const signIn = (email: string, code: string | undefined, ip = nextIp()) =>
  authenticate(db, { email, password: PASSWORD, code }, ip, { encryptionKey });

describe('TOTP enrolment', () => {
  it('stores the secret sealed and asks for nothing until a current code confirms it', async () => {
    const user = await newUser();
    const secret = await pendingTotpSecret(db, user);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await pendingTotpSecret(db, user)).toBe(secret); // a reload shows the same QR code
    const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row!.secretSealed).not.toContain(secret!);
    expect(row!.enabledAt).toBeNull();
    // Pending: sign-in still needs only the password.
    await expect(signIn(user.email, undefined)).resolves.toMatchObject({ id: user.id });

    expect(await confirmTotp(db, { ...user, code: '000000' === codeAt(secret!) ? '111111' : '000000' })).toEqual({
      ok: false,
      reason: 'wrong_code',
    });
    const confirmed = await confirmTotp(db, { ...user, code: codeAt(secret!) });
    expect(confirmed.ok).toBe(true);
    if (!confirmed.ok) return;
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    const stored = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of confirmed.recoveryCodes) expect(stored.map((s) => s.codeHash)).not.toContain(code);
    // On: no new secret is offered, and a second confirm is refused.
    expect(await pendingTotpSecret(db, user)).toBeNull();
    expect(await confirmTotp(db, { ...user, code: codeAt(secret!, 1) })).toEqual({ ok: false, reason: 'not_pending' });
  });

  it('a secret sealed for one user does not open for another', async () => {
    const a = await newUser();
    const b = await newUser();
    await pendingTotpSecret(db, a);
    await pendingTotpSecret(db, b);
    const [sealedA] = await db.select().from(totpFactors).where(eq(totpFactors.userId, a.id));
    await db.update(totpFactors).set({ secretSealed: sealedA!.secretSealed }).where(eq(totpFactors.userId, b.id));
    await expect(pendingTotpSecret(db, b)).rejects.toThrow();
  });
});

describe('sign-in with a second factor', () => {
  it('asks for a code after a correct password and signs in with it; no code is not a failed attempt', async () => {
    const user = await enrolled();
    const ip = nextIp();
    await expect(signIn(user.email, undefined, ip)).rejects.toThrow(SIGN_IN_ERRORS.twoFactorRequired);
    await expect(signIn(user.email, '', ip)).rejects.toThrow(SIGN_IN_ERRORS.twoFactorRequired);
    // The confirming code's step is spent; the next step's code signs in.
    await expect(signIn(user.email, codeAt(user.secret, 1), ip)).resolves.toMatchObject({ id: user.id });
    const attempts = await db.select().from(loginAttempts).where(eq(loginAttempts.email, user.email));
    expect(attempts.map((a) => a.succeeded)).toEqual([true, true, true]);
  });

  it('a wrong password never reaches the code check', async () => {
    const user = await enrolled();
    await expect(
      authenticate(db, { email: user.email, password: 'wrong', code: codeAt(user.secret, 1) }, nextIp(), {
        encryptionKey,
      }),
    ).rejects.toThrow(SIGN_IN_ERRORS.invalid);
  });

  it('refuses a wrong code and counts it as a failed attempt, up to the sign-in limit', async () => {
    const user = await enrolled();
    const ip = nextIp();
    const wrong = codeAt(user.secret, 1) === '123456' ? '654321' : '123456';
    await expect(signIn(user.email, wrong, ip)).rejects.toThrow(SIGN_IN_ERRORS.wrongCode);
    const [failed] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, user.email), eq(loginAttempts.succeeded, false)));
    expect(failed!.n).toBe(1);
    for (let i = 0; i < 9; i++) await expect(signIn(user.email, wrong, ip)).rejects.toThrow(SIGN_IN_ERRORS.wrongCode);
    // Ten wrong codes from one address: even the right code is refused there now.
    await expect(signIn(user.email, codeAt(user.secret, 1), ip)).rejects.toThrow(SIGN_IN_ERRORS.throttled);
  });

  it('a recovery code signs in once', async () => {
    const user = await enrolled();
    const [code] = user.recoveryCodes;
    await expect(signIn(user.email, code!.toUpperCase())).resolves.toMatchObject({ id: user.id });
    await expect(signIn(user.email, code)).rejects.toThrow(SIGN_IN_ERRORS.wrongCode);
    await expect(signIn(user.email, user.recoveryCodes[1])).resolves.toMatchObject({ id: user.id });
  });

  it('a used code is refused: the same code sent twice, and five times in parallel, signs in exactly once', async () => {
    const user = await enrolled();
    const code = codeAt(user.secret, 0);
    await expect(signIn(user.email, code)).resolves.toMatchObject({ id: user.id });
    await expect(signIn(user.email, code)).rejects.toThrow(SIGN_IN_ERRORS.wrongCode);

    const fresh = codeAt(user.secret, 1);
    // Separate connections (pool of 12), each its own address so no limit interferes.
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => signIn(user.email, fresh)));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(4);
    for (const r of lost) expect((r as PromiseRejectedResult).reason.message).toBe(SIGN_IN_ERRORS.wrongCode);
  });

  it('after disabling, the password alone signs in again', async () => {
    const user = await enrolled();
    await disableTotp(db, user);
    await expect(signIn(user.email, undefined)).resolves.toMatchObject({ id: user.id });
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(0);
  });
});

describe('a workspace that requires two-factor sign-in', () => {
  it('sends its members without a second factor to enrol, until they have one', async () => {
    const workspace = await upsertWorkspace(db, { slug: `tf-${randomUUID().slice(0, 8)}`, name: 'Strict' });
    const user = await newUser();
    await addMembership(db, { workspaceId: workspace.id, userId: user.id, role: 'viewer' });
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(false);
    await setWorkspaceRequireTwoFactor(db, { workspaceId: workspace.id, required: true });
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(true);
    const secret = (await pendingTotpSecret(db, user))!;
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(true); // pending is not enrolled
    await confirmTotp(db, { ...user, code: codeAt(secret) });
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(false);
  });
});
