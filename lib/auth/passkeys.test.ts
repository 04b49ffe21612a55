import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listPasskeys } from '@/db/queries/passkeys';
import { getUserCredentialsByEmail } from '@/db/queries/users';
import { passkeys, sessions, webauthnChallenges } from '@/db/schema';
import { seedDemoData } from '@/scripts/seed/seed';
import { makeUser } from '@/testing/db/factories';
import { holdLock } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { getAuthOptions } from './options';
import { authenticatePasskey } from './passkey-sign-in';
import {
  authenticationOptions,
  registerPasskey,
  registrationOptions,
  verifyPasskeySignIn,
  type RelyingParty,
} from './passkeys';
import { SoftAuthenticator } from '@/testing/soft-authenticator';

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url; // getAuthOptions' callbacks use the app's getDb()

const rp: RelyingParty = { id: 'semel.test', origin: 'https://semel.test', name: 'Semel' };

beforeAll(async () => {
  await seedDemoData(db, { password: 'passkeys-test-password', encryptionKey: randomBytes(32).toString('base64') });
});

const userByEmail = async (email: string) => (await getUserCredentialsByEmail(db, { email }))!;
const challengeRows = async () => (await db.select().from(webauthnChallenges)).length;

/** A user with a registered passkey held by a fresh software authenticator. */
async function enrolled(email?: string) {
  const user = await makeUser(db, email);
  const key = new SoftAuthenticator(rp.origin);
  const options = await registrationOptions(db, { userId: user.id, email: user.email, name: user.name, rp });
  const result = await registerPasskey(db, { userId: user.id, response: key.register(options), name: 'Laptop', rp });
  expect(result.ok).toBe(true);
  return { user, key };
}

describe('passkey registration', () => {
  it('stores the public key under the user with its name; the challenge is gone afterwards', async () => {
    const { user, key } = await enrolled();
    const [row] = await db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row).toMatchObject({ credentialId: key.credentialId, name: 'Laptop', counter: 0, lastUsedAt: null });
    expect(Buffer.from(row!.publicKey, 'base64url').length).toBeGreaterThan(64);
    const listed = await listPasskeys(db, { userId: user.id });
    expect(listed.map((p) => p.name)).toEqual(['Laptop']);
    expect(listed[0]).not.toHaveProperty('publicKey');
  });

  it("refuses another user's challenge, a replayed registration, and the same credential twice", async () => {
    const alice = await makeUser(db);
    const mallory = await makeUser(db);
    const key = new SoftAuthenticator(rp.origin);
    const options = await registrationOptions(db, { userId: alice.id, email: alice.email, name: alice.name, rp });
    const response = key.register(options);
    // Mallory cannot take Alice's challenge (and trying does not use it up).
    await expect(registerPasskey(db, { userId: mallory.id, response, name: 'X', rp })).resolves.toEqual({
      ok: false,
      reason: 'challenge',
    });
    await expect(registerPasskey(db, { userId: alice.id, response, name: 'Key', rp })).resolves.toMatchObject({
      ok: true,
    });
    await expect(registerPasskey(db, { userId: alice.id, response, name: 'Key', rp })).resolves.toEqual({
      ok: false,
      reason: 'challenge',
    });
    const again = await registrationOptions(db, { userId: mallory.id, email: mallory.email, name: mallory.name, rp });
    await expect(
      registerPasskey(db, { userId: mallory.id, response: key.register(again), name: 'Stolen', rp }),
    ).resolves.toEqual({ ok: false, reason: 'duplicate' });
    expect(await listPasskeys(db, { userId: mallory.id })).toEqual([]);
  });

  it('refuses a response made for another origin (a phishing site)', async () => {
    const user = await makeUser(db);
    const key = new SoftAuthenticator('https://semel.test.evil.example');
    const options = await registrationOptions(db, { userId: user.id, email: user.email, name: user.name, rp });
    await expect(
      registerPasskey(db, { userId: user.id, response: key.register(options), name: 'Laptop', rp }),
    ).resolves.toEqual({ ok: false, reason: 'invalid' });
    expect(await listPasskeys(db, { userId: user.id })).toEqual([]);
  });
});

describe('passkey sign-in', () => {
  it('returns the user, moves the counter and records the use', async () => {
    const { user, key } = await enrolled();
    const options = await authenticationOptions(db, { rp });
    const signedIn = await verifyPasskeySignIn(db, { response: key.assert(options), rp });
    expect(signedIn).toMatchObject({ id: user.id, email: user.email });
    const [row] = await db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it('a challenge is used once: the same assertion replayed is refused', async () => {
    const { key } = await enrolled();
    const response = key.assert(await authenticationOptions(db, { rp }));
    await expect(verifyPasskeySignIn(db, { response, rp })).resolves.not.toBeNull();
    await expect(verifyPasskeySignIn(db, { response, rp })).resolves.toBeNull();
  });

  it('an expired challenge is refused (and deleted)', async () => {
    const { key } = await enrolled();
    const options = await authenticationOptions(db, { rp });
    await db
      .update(webauthnChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(webauthnChallenges.purpose, 'authenticate'));
    const before = await challengeRows();
    await expect(verifyPasskeySignIn(db, { response: key.assert(options), rp })).resolves.toBeNull();
    expect(await challengeRows()).toBe(before - 1);
  });

  it('an unknown credential is refused, and its try uses the challenge up', async () => {
    await enrolled();
    const stranger = new SoftAuthenticator(rp.origin);
    const options = await authenticationOptions(db, { rp });
    const before = await challengeRows();
    await expect(verifyPasskeySignIn(db, { response: stranger.assert(options), rp })).resolves.toBeNull();
    expect(await challengeRows()).toBe(before - 1);
  });

  it('refuses another origin, a forged signature, and a counter that does not move forward (a cloned key)', async () => {
    const { key } = await enrolled();
    const phished = key.assert(await authenticationOptions(db, { rp }), { origin: 'https://semel-test.example' });
    await expect(verifyPasskeySignIn(db, { response: phished, rp })).resolves.toBeNull();

    const forged = key.assert(await authenticationOptions(db, { rp }));
    const other = new SoftAuthenticator(rp.origin).assert(await authenticationOptions(db, { rp }));
    forged.response.signature = other.response.signature;
    await expect(verifyPasskeySignIn(db, { response: forged, rp })).resolves.toBeNull();

    await expect(
      verifyPasskeySignIn(db, { response: key.assert(await authenticationOptions(db, { rp })), rp }),
    ).resolves.not.toBeNull();
    key.counter -= 1; // a copy of the key that is one use behind
    const cloned = key.assert(await authenticationOptions(db, { rp }));
    await expect(verifyPasskeySignIn(db, { response: cloned, rp })).resolves.toBeNull();
  });

  it('two requests racing with one assertion: both reach the DELETE, exactly one signs in', async () => {
    const { user, key } = await enrolled();
    const options = await authenticationOptions(db, { rp });
    const response = key.assert(options);
    // Holding the challenge row makes both sides wait at their DELETE … RETURNING, then compete for the one row.
    const release = await holdLock(
      db,
      sql`select 1 from webauthn_challenges where expires_at > now() and purpose = 'authenticate' for update`,
    );
    const sides = [verifyPasskeySignIn(db, { response, rp }), verifyPasskeySignIn(db, { response, rp })];
    const deadline = Date.now() + 5_000;
    let blocked = 0;
    while (blocked < 2 && Date.now() < deadline) {
      const [row] = [
        ...(await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query ilike 'delete from "webauthn_challenges"%'`)),
      ];
      blocked = row!.n;
    }
    expect(blocked).toBe(2);
    await release();
    const results = await Promise.all(sides);
    expect(results.filter((r) => r?.id === user.id)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(1);
  });
});

describe("next-auth's passkey provider", () => {
  it('signs in through the jwt callback like a password: a session row whose id the JWT carries', async () => {
    const admin = await userByEmail('admin@demo.test');
    const key = new SoftAuthenticator(rp.origin);
    const reg = await registrationOptions(db, { userId: admin.id, email: admin.email, name: admin.name, rp });
    expect((await registerPasskey(db, { userId: admin.id, response: key.register(reg), name: 'Phone', rp })).ok).toBe(
      true,
    );
    const input = { response: JSON.stringify(key.assert(await authenticationOptions(db, { rp }))) };
    const user = await authenticatePasskey(db, input, rp);
    expect(user).toMatchObject({ id: admin.id, role: 'admin', workspaceId: expect.any(String) });

    const token = await getAuthOptions().callbacks!.jwt!({
      token: {},
      user: user as never,
      account: { provider: 'passkey', type: 'credentials', providerAccountId: user.id },
    });
    expect(token).toMatchObject({ userId: admin.id, workspaceId: user.workspaceId, sessionId: expect.any(String) });
    const [row] = await db
      .select()
      .from(sessions)
      .where(eq(sessions.id, token.sessionId as string));
    expect(row).toMatchObject({ userId: admin.id, sessionVersion: admin.sessionVersion });
  });

  it('refuses garbage with its one error, writing nothing', async () => {
    const before = await challengeRows();
    for (const input of [undefined, {}, { response: 'not json' }, { response: '{"id":"x"}' }, { response: 1 }]) {
      await expect(authenticatePasskey(db, input, rp)).rejects.toThrow('PasskeyRefused');
    }
    expect(await challengeRows()).toBe(before);
  });
});
