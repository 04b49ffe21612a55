import { randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpSessionVersion, getUserCredentialsByEmail } from '@/db/queries/users';
import { users } from '@/db/schema';
import { seedDemoData } from '@/db/seed';
import { createTestDatabase } from '@/db/testing/test-database';
import { authenticate } from './credentials';
import { verifiedPrimaryGitHubEmail } from './github-email';
import { getAuthOptions } from './options';
import { needsRehash, SCRYPT_PARAMS, verifyPassword } from './password';
import { resolveSessionUser } from './session-user';

const PASSWORD = 'sessions-test-password';
const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url; // getAuthOptions' callbacks use the app's getDb()

beforeAll(async () => {
  await seedDemoData(db, { password: PASSWORD, encryptionKey: randomBytes(32).toString('base64') });
});

let ip = 0;
const nextIp = () => `10.9.0.${++ip}`;

describe('session version (sign out everywhere)', () => {
  it('a session is valid while its version matches; after a bump every older session is refused', async () => {
    const user = await authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, nextIp());
    const claims = { userId: user.id, sessionVersion: user.sessionVersion };
    await expect(resolveSessionUser(db, claims)).resolves.toMatchObject({ id: user.id, email: 'viewer@demo.test' });

    const next = await bumpSessionVersion(db, { userId: user.id });
    expect(next).toBe(user.sessionVersion + 1);
    await expect(resolveSessionUser(db, claims)).resolves.toBeNull();
    // Tokens from before session versions existed count as version 1: refused too.
    await expect(resolveSessionUser(db, { userId: user.id })).resolves.toBeNull();

    const again = await authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, nextIp());
    expect(again.sessionVersion).toBe(next);
    await expect(
      resolveSessionUser(db, { userId: again.id, sessionVersion: again.sessionVersion }),
    ).resolves.toMatchObject({ id: user.id });
  });

  it('a deleted user has no session', async () => {
    await expect(
      resolveSessionUser(db, { userId: '00000000-0000-4000-8000-000000000000', sessionVersion: 1 }),
    ).resolves.toBeNull();
  });

  it('the JWT carries the version it was issued with, and the session exposes it', async () => {
    const { callbacks } = getAuthOptions();
    const user = await authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, nextIp());
    const token = await callbacks!.jwt!({
      token: {},
      user: user as never,
      account: { provider: 'credentials', type: 'credentials', providerAccountId: user.id },
    });
    expect(token).toMatchObject({ userId: user.id, sessionVersion: user.sessionVersion });
    const session = await callbacks!.session!({
      session: { user: {}, expires: '' } as never,
      token,
      user: undefined as never,
      newSession: undefined,
      trigger: 'update',
    });
    expect(session).toMatchObject({ sessionVersion: user.sessionVersion, user: { id: user.id } });
  });
});

describe('scrypt cost and transparent rehash', () => {
  const scrypt = promisify(scryptCallback) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
  async function oldCostHash(password: string) {
    const salt = randomBytes(16);
    const hash = await scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 });
    return ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
  }

  it('new hashes use N=2^17, r=8, p=1', async () => {
    const stored = (await getUserCredentialsByEmail(db, { email: 'admin@demo.test' }))!.passwordHash!;
    expect(stored.startsWith(`scrypt$${2 ** 17}$8$1$`)).toBe(true);
    expect(SCRYPT_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(needsRehash(stored)).toBe(false);
  });

  it("an old N=2^14 hash still signs in, and is replaced by one at today's cost", async () => {
    const old = await oldCostHash(PASSWORD);
    expect(needsRehash(old)).toBe(true);
    await db.update(users).set({ passwordHash: old }).where(eq(users.email, 'admin@other.test'));
    await expect(authenticate(db, { email: 'admin@other.test', password: PASSWORD }, nextIp())).resolves.toMatchObject({
      role: 'admin',
    });
    const upgraded = (await getUserCredentialsByEmail(db, { email: 'admin@other.test' }))!.passwordHash!;
    expect(upgraded).not.toBe(old);
    expect(upgraded.startsWith(`scrypt$${2 ** 17}$8$1$`)).toBe(true);
    await expect(verifyPassword(PASSWORD, upgraded)).resolves.toBe(true);
    await expect(authenticate(db, { email: 'admin@other.test', password: PASSWORD }, nextIp())).resolves.toMatchObject({
      role: 'admin',
    });
  });

  it('a wrong password against an old hash changes nothing', async () => {
    const old = await oldCostHash(PASSWORD);
    await db.update(users).set({ passwordHash: old }).where(eq(users.email, 'admin@other.test'));
    await expect(
      authenticate(db, { email: 'admin@other.test', password: 'wrong-password' }, nextIp()),
    ).rejects.toThrow();
    expect((await getUserCredentialsByEmail(db, { email: 'admin@other.test' }))!.passwordHash).toBe(old);
  });
});

describe('GitHub sign-in: only a verified primary email', () => {
  let emails: unknown = [];
  let server: Server;
  let apiUrl = '';
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const authorized = req.headers.authorization === 'Bearer gho_test';
      res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(authorized && req.url === '/user/emails' ? emails : { message: 'Bad credentials' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The next-auth callbacks call api.github.com: point that host at the local server (real HTTP).
    globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) =>
      realFetch(
        String(input instanceof Request ? input.url : input).replace('https://api.github.com', apiUrl),
        init,
      )) as typeof fetch;
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['verified primary', [{ email: 'Admin@Demo.test', primary: true, verified: true }], 'admin@demo.test'],
    ['unverified primary', [{ email: 'admin@demo.test', primary: true, verified: false }], null],
    [
      'verified but not primary',
      [
        { email: 'x@y.test', primary: true, verified: false },
        { email: 'admin@demo.test', primary: false, verified: true },
      ],
      null,
    ],
    ['not a list', { email: 'admin@demo.test' }, null],
  ])('%s → %s', async (_name, body, expected) => {
    emails = body;
    await expect(verifiedPrimaryGitHubEmail('gho_test', { apiUrl })).resolves.toBe(expected);
  });

  it('a refused token gives no email', async () => {
    emails = [{ email: 'admin@demo.test', primary: true, verified: true }];
    await expect(verifiedPrimaryGitHubEmail('gho_wrong', { apiUrl })).resolves.toBeNull();
  });

  it("the sign-in callback refuses a member's email that GitHub has not verified, even if the profile shows it", async () => {
    const { callbacks } = getAuthOptions();
    const account = { provider: 'github', type: 'oauth' as const, providerAccountId: '1', access_token: 'gho_test' };
    const profileUser = { id: '1', email: 'admin@demo.test', name: 'attacker' };
    emails = [{ email: 'admin@demo.test', primary: true, verified: false }];
    await expect(callbacks!.signIn!({ user: profileUser, account })).resolves.toBe(false);
    emails = [{ email: 'admin@demo.test', primary: true, verified: true }];
    await expect(callbacks!.signIn!({ user: profileUser, account })).resolves.toBe(true);
    const token = await callbacks!.jwt!({ token: {}, user: profileUser as never, account });
    const admin = await getUserCredentialsByEmail(db, { email: 'admin@demo.test' });
    expect(token).toMatchObject({ userId: admin!.id, sessionVersion: admin!.sessionVersion });
  });

  it("a verified email that is no member's is refused", async () => {
    const { callbacks } = getAuthOptions();
    emails = [{ email: 'stranger@example.test', primary: true, verified: true }];
    await expect(
      callbacks!.signIn!({
        user: { id: '2', email: 'admin@demo.test' },
        account: { provider: 'github', type: 'oauth', providerAccountId: '2', access_token: 'gho_test' },
      }),
    ).resolves.toBe(false);
  });
});
