import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { setWorkspaceRequireTwoFactor } from '@/db/queries/two-factor';
import { upsertUser } from '@/db/queries/users';
import { addMembership, upsertWorkspace } from '@/db/queries/workspaces';
import { loginAttempts, passkeys, webauthnChallenges } from '@/db/schema';
import { createTestDatabase } from '@/testing/db/test-database';
import { authenticate, passkeySecondFactorOptions, SIGN_IN_ERRORS } from './credentials';
import { hashPassword } from './password';
import {
  authenticationOptions,
  registerPasskey,
  registrationOptions,
  verifyPasskeySignIn,
  type RelyingParty,
} from './passkeys';
import { secondFactorsOf, twoFactorEnrolmentDue } from './second-factor';
import { offeredSecondFactors, twoFactorRequiredError } from './sign-in-errors';
import { SoftAuthenticator } from '@/testing/soft-authenticator';
import { MAX_FAILED_LOGINS } from './throttle';
import { confirmTotp, pendingTotpSecret } from './two-factor';

const PASSWORD = 'a-long-test-password-2';
const encryptionKey = randomBytes(32).toString('base64');
const rp: RelyingParty = { id: 'semel.test', origin: 'https://semel.test', name: 'Semel' };
// Real parallel connections for the race below.
const { db } = await createTestDatabase({ max: 12 });
const passwordHash = await hashPassword(PASSWORD);

let ipCounter = 0;
const nextIp = () => `10.11.0.${++ipCounter}`;

async function newUser() {
  const email = `u-${randomUUID()}@passkey-second-factor.test`;
  return upsertUser(db, { email, name: 'Passkey Second Factor', passwordHash });
}

/** A user (password, no TOTP) with one passkey held by a fresh software authenticator. */
async function withPasskey() {
  const user = await newUser();
  const key = new SoftAuthenticator(rp.origin);
  const options = await registrationOptions(db, { userId: user.id, email: user.email, name: user.name, rp });
  const result = await registerPasskey(db, { userId: user.id, response: key.register(options), name: 'Key', rp });
  if (!result.ok) throw new Error('registration failed');
  return { ...user, key };
}

async function withTotp(userId: string) {
  const secret = (await pendingTotpSecret(db, { userId, encryptionKey }))!;
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  if (!(await confirmTotp(db, { userId, encryptionKey, code })).ok) throw new Error('enrolment failed');
}

/** The challenge options for the second step, which only the right password gets. */
async function begin(email: string, password = PASSWORD, ip = nextIp()) {
  return passkeySecondFactorOptions(db, { email, password }, ip, { rp });
}

async function optionsFor(email: string) {
  const started = await begin(email);
  if (!started.ok) throw new Error(`no challenge: ${started.error}`);
  return started.options;
}

const signIn = (email: string, extra: { passkey?: string; code?: string } = {}, ip = nextIp(), password = PASSWORD) =>
  authenticate(db, { email, password, ...extra }, ip, { encryptionKey, rp });

const liveChallenges = async (userId: string) =>
  (await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, userId))).length;

const failedAttempts = async (email: string) => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), eq(loginAttempts.succeeded, false)));
  return row!.n;
};

describe('a passkey counts as a second factor', () => {
  it('secondFactorsOf counts the passkeys; after the right password, sign-in asks for one', async () => {
    const user = await withPasskey();
    expect(await secondFactorsOf(db, user.id)).toEqual({ totp: false, passkeys: 1 });
    const ip = nextIp();
    await expect(signIn(user.email, {}, ip)).rejects.toThrow(new Error('TwoFactorRequired:passkey'));
    await expect(signIn(user.email, { code: '', passkey: '' }, ip)).rejects.toThrow(
      new Error('TwoFactorRequired:passkey'),
    );
    // Asked for the second step is not a failed attempt; a wrong password still says only the generic error.
    expect(await failedAttempts(user.email)).toBe(0);
    await expect(signIn(user.email, {}, ip, 'wrong-password')).rejects.toThrow(new Error(SIGN_IN_ERRORS.invalid));

    await withTotp(user.id);
    expect(await secondFactorsOf(db, user.id)).toEqual({ totp: true, passkeys: 1 });
    await expect(signIn(user.email)).rejects.toThrow(new Error('TwoFactorRequired:totp,passkey'));
  });

  it('the form reads the offered factors back from the error', () => {
    expect(offeredSecondFactors(twoFactorRequiredError({ totp: true, passkeys: 0 }))).toEqual(['totp']);
    expect(offeredSecondFactors(twoFactorRequiredError({ totp: false, passkeys: 2 }))).toEqual(['passkey']);
    expect(offeredSecondFactors(twoFactorRequiredError({ totp: true, passkeys: 1 }))).toEqual(['totp', 'passkey']);
    expect(offeredSecondFactors('TwoFactorRequired')).toEqual(['totp']);
    expect(offeredSecondFactors(SIGN_IN_ERRORS.invalid)).toBeNull();
  });

  it('satisfies a workspace that requires two-factor sign-in; removing the last passkey makes enrolment due again', async () => {
    const workspace = await upsertWorkspace(db, { slug: `pk-${randomUUID().slice(0, 8)}`, name: 'Strict' });
    const user = await newUser();
    await addMembership(db, { workspaceId: workspace.id, userId: user.id, role: 'viewer' });
    await setWorkspaceRequireTwoFactor(db, { workspaceId: workspace.id, required: true });
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(true);
    const key = new SoftAuthenticator(rp.origin);
    const options = await registrationOptions(db, { userId: user.id, email: user.email, name: user.name, rp });
    expect((await registerPasskey(db, { userId: user.id, response: key.register(options), name: 'K', rp })).ok).toBe(
      true,
    );
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(false);
    await db.delete(passkeys).where(eq(passkeys.userId, user.id));
    expect(await twoFactorEnrolmentDue(db, user.id)).toBe(true);
  });
});

describe('the second-step challenge', () => {
  it("is issued only after the right password, naming only that user's passkeys", async () => {
    const user = await withPasskey();
    const other = await withPasskey();
    const options = await optionsFor(user.email);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([user.key.credentialId]);
    expect(options.rpId).toBe(rp.id);
    const [row] = await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id));
    expect(row).toMatchObject({ purpose: 'second_factor', userId: user.id });
    expect(row!.challengeHash).not.toBe(options.challenge); // only its hash is kept
    expect(await liveChallenges(user.id)).toBe(1);
    expect(await liveChallenges(other.id)).toBe(0); // the registration's was used up; none was issued for them
  });

  it('a wrong password (or an unknown email) never gets a challenge: the generic error, counted as a failure', async () => {
    const user = await withPasskey();
    const before = (await db.select().from(webauthnChallenges)).length;
    const ip = nextIp();
    await expect(begin(user.email, 'wrong-password', ip)).resolves.toEqual({
      ok: false,
      error: SIGN_IN_ERRORS.invalid,
    });
    await expect(begin(`nobody-${randomUUID()}@passkey-second-factor.test`, PASSWORD, ip)).resolves.toEqual({
      ok: false,
      error: SIGN_IN_ERRORS.invalid,
    });
    for (const input of [null, {}, { email: user.email }, { email: 'not an email', password: PASSWORD }]) {
      await expect(passkeySecondFactorOptions(db, input, ip, { rp })).resolves.toEqual({
        ok: false,
        error: SIGN_IN_ERRORS.invalid,
      });
    }
    expect((await db.select().from(webauthnChallenges)).length).toBe(before);
    expect(await failedAttempts(user.email)).toBe(1);
  });

  it('shares the sign-in limit: after too many wrong passwords even the right one gets no challenge there', async () => {
    const user = await withPasskey();
    const ip = nextIp();
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      await expect(begin(user.email, `wrong-${i}`, ip)).resolves.toEqual({ ok: false, error: SIGN_IN_ERRORS.invalid });
    }
    await expect(begin(user.email, PASSWORD, ip)).resolves.toEqual({ ok: false, error: SIGN_IN_ERRORS.throttled });
    await expect(signIn(user.email, {}, ip)).rejects.toThrow(SIGN_IN_ERRORS.throttled);
    expect(await liveChallenges(user.id)).toBe(0);
  });

  it('webauthn_challenges_second_factor_user_ck: a second-step challenge always names its user', async () => {
    const insert = db.insert(webauthnChallenges).values({
      challengeHash: randomUUID(),
      purpose: 'second_factor',
      userId: null,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await expect(insert).rejects.toMatchObject({
      cause: { constraint_name: 'webauthn_challenges_second_factor_user_ck' },
    });
  });

  it('the right password without a passkey gets no challenge either', async () => {
    const user = await newUser();
    await withTotp(user.id);
    await expect(begin(user.email)).resolves.toEqual({ ok: false, error: SIGN_IN_ERRORS.noPasskey });
    expect(await liveChallenges(user.id)).toBe(0);
  });
});

describe('signing in with password + passkey', () => {
  it('signs in with the assertion over its own challenge; the counter moves, no attempt counts as failed', async () => {
    const user = await withPasskey();
    const response = user.key.assert(await optionsFor(user.email));
    await expect(signIn(user.email, { passkey: JSON.stringify(response) })).resolves.toMatchObject({ id: user.id });
    const [row] = await db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row).toMatchObject({ counter: 1, lastUsedAt: expect.any(Date) });
    expect(await failedAttempts(user.email)).toBe(0);
    expect(await liveChallenges(user.id)).toBe(0);
  });

  it("refuses another user's passkey, even signed over this user's challenge, and uses the challenge up", async () => {
    const alice = await withPasskey();
    const mallory = await withPasskey();
    // Mallory knows her password; Alice's authenticator signs Mallory's challenge (the key ignores allowCredentials).
    const forMallory = alice.key.assert(await optionsFor(mallory.email));
    await expect(signIn(mallory.email, { passkey: JSON.stringify(forMallory) })).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.passkey),
    );
    expect(await liveChallenges(mallory.id)).toBe(0);
    expect(await failedAttempts(mallory.email)).toBe(1);

    // Alice's own challenge and assertion, sent with Mallory's password: the challenge was not issued to Mallory.
    const forAlice = alice.key.assert(await optionsFor(alice.email));
    await expect(signIn(mallory.email, { passkey: JSON.stringify(forAlice) })).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.passkey),
    );
    const [aliceKey] = await db.select().from(passkeys).where(eq(passkeys.userId, alice.id));
    expect(aliceKey!.lastUsedAt).toBeNull();
    // Untouched by Mallory's try, Alice's challenge still signs Alice in.
    await expect(signIn(alice.email, { passkey: JSON.stringify(forAlice) })).resolves.toMatchObject({ id: alice.id });
  });

  it('a passkey cannot stand in for the code of an account that has none', async () => {
    const mallory = await withPasskey();
    const victim = await newUser();
    await withTotp(victim.id);
    const response = mallory.key.assert(await optionsFor(mallory.email));
    await expect(signIn(victim.email, { passkey: JSON.stringify(response) })).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.passkey),
    );
  });

  it('a wrong password never reaches the passkey check (the challenge stays unused)', async () => {
    const user = await withPasskey();
    const response = JSON.stringify(user.key.assert(await optionsFor(user.email)));
    await expect(signIn(user.email, { passkey: response }, nextIp(), 'wrong-password')).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.invalid),
    );
    expect(await liveChallenges(user.id)).toBe(1);
    await expect(signIn(user.email, { passkey: response })).resolves.toMatchObject({ id: user.id });
  });

  it('a challenge is used once: the same assertion replayed is refused, and five sent in parallel sign in once', async () => {
    const user = await withPasskey();
    const response = JSON.stringify(user.key.assert(await optionsFor(user.email)));
    await expect(signIn(user.email, { passkey: response })).resolves.toMatchObject({ id: user.id });
    await expect(signIn(user.email, { passkey: response })).rejects.toThrow(new Error(SIGN_IN_ERRORS.passkey));

    const fresh = JSON.stringify(user.key.assert(await optionsFor(user.email)));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => signIn(user.email, { passkey: fresh })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost.map((r) => (r.reason as Error).message)).toEqual(Array(4).fill(SIGN_IN_ERRORS.passkey));
  });

  it('an expired challenge is refused', async () => {
    const user = await withPasskey();
    const response = JSON.stringify(user.key.assert(await optionsFor(user.email)));
    await db
      .update(webauthnChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(webauthnChallenges.userId, user.id));
    await expect(signIn(user.email, { passkey: response })).rejects.toThrow(new Error(SIGN_IN_ERRORS.passkey));
  });

  it('challenges do not cross: a passwordless one is no second step, a second-step one no passwordless sign-in', async () => {
    const user = await withPasskey();
    const passwordless = user.key.assert(await authenticationOptions(db, { rp }));
    await expect(signIn(user.email, { passkey: JSON.stringify(passwordless) })).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.passkey),
    );
    const secondStep = user.key.assert(await optionsFor(user.email));
    await expect(verifyPasskeySignIn(db, { response: secondStep, rp })).resolves.toBeNull();
    await expect(signIn(user.email, { passkey: JSON.stringify(secondStep) })).resolves.toMatchObject({ id: user.id });
  });

  it('refuses garbage in place of an assertion, and a response signed for another origin', async () => {
    const user = await withPasskey();
    for (const passkey of [
      'not json',
      '{"id":"x"}',
      JSON.stringify({ ...user.key.assert(await optionsFor(user.email)), type: 'x' }),
    ]) {
      await expect(signIn(user.email, { passkey })).rejects.toThrow(new Error(SIGN_IN_ERRORS.passkey));
    }
    const phished = user.key.assert(await optionsFor(user.email), { origin: 'https://semel-test.example' });
    await expect(signIn(user.email, { passkey: JSON.stringify(phished) })).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.passkey),
    );
  });
});
