import { randomBytes, randomUUID, scrypt as scryptCallback } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, listLiveSessions } from '@/db/queries/sessions';
import { bumpSessionVersion, getUserCredentialsByEmail } from '@/db/queries/users';
import { sessions, users } from '@/db/schema';
import { seedDemoData } from '@/scripts/seed/seed';
import { createTestDatabase } from '@/testing/db/test-database';
import { authenticate } from './credentials';
import { verifiedPrimaryGitHubEmail } from './github-email';
import { pruneSessionsJob } from '@/lib/jobs/prune-sessions';
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

const IDLE = { idleHours: 24 };
const signInRow = async (userId: string, sessionVersion: number) =>
  createSession(db, { userId, sessionVersion, userAgent: 'vitest', address: '10.9.9.9', maxDays: 30 });
const rowOf = async (id: string) => (await db.select().from(sessions).where(eq(sessions.id, id)))[0];

describe('session rows (sign-out ends a session at once)', () => {
  it('the JWT carries the session row made at sign-in; the sign-out event deletes it and the token stops working', async () => {
    const { callbacks, events } = getAuthOptions();
    const user = await authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, nextIp());
    const token = await callbacks!.jwt!({
      token: {},
      user: user as never,
      account: { provider: 'credentials', type: 'credentials', providerAccountId: user.id },
    });
    expect(token).toMatchObject({
      userId: user.id,
      sessionVersion: user.sessionVersion,
      sessionId: expect.any(String),
    });
    const row = await rowOf(token.sessionId as string);
    expect(row).toMatchObject({ userId: user.id, sessionVersion: user.sessionVersion });
    // Absolute end: SESSION_MAX_DAYS (30 by default) after sign-in.
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(30 * 86_400_000);
    const session = await callbacks!.session!({
      session: { user: {}, expires: '' } as never,
      token,
      user: undefined as never,
      newSession: undefined,
      trigger: 'update',
    });
    expect(session).toMatchObject({ sessionVersion: user.sessionVersion, sessionId: row!.id, user: { id: user.id } });
    const claims = { userId: user.id, sessionVersion: user.sessionVersion, sessionId: row!.id };
    await expect(resolveSessionUser(db, claims, IDLE)).resolves.toMatchObject({ id: user.id });

    await events!.signOut!({ token, session: undefined as never });
    expect(await rowOf(row!.id)).toBeUndefined();
    // The same (still validly signed) token is no session any more.
    await expect(resolveSessionUser(db, claims, IDLE)).resolves.toBeNull();
  });

  it('a token without a session id (issued before session rows), a malformed id or a session of another user is refused', async () => {
    const viewer = (await getUserCredentialsByEmail(db, { email: 'viewer@demo.test' }))!;
    const admin = (await getUserCredentialsByEmail(db, { email: 'admin@demo.test' }))!;
    const adminSession = await signInRow(admin.id, admin.sessionVersion);
    const claims = { userId: viewer.id, sessionVersion: viewer.sessionVersion };
    await expect(resolveSessionUser(db, claims, IDLE)).resolves.toBeNull();
    await expect(resolveSessionUser(db, { ...claims, sessionId: 'not-a-uuid' }, IDLE)).resolves.toBeNull();
    await expect(resolveSessionUser(db, { ...claims, sessionId: adminSession }, IDLE)).resolves.toBeNull();
  });

  it(`idle expiry: a session unseen for ${IDLE.idleHours} h has ended; one seen within it is live, and is seen again`, async () => {
    const viewer = (await getUserCredentialsByEmail(db, { email: 'viewer@demo.test' }))!;
    const [idle, active] = [
      await signInRow(viewer.id, viewer.sessionVersion),
      await signInRow(viewer.id, viewer.sessionVersion),
    ];
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '24 hours 1 minute'` })
      .where(eq(sessions.id, idle));
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '23 hours'` })
      .where(eq(sessions.id, active));
    const claims = { userId: viewer.id, sessionVersion: viewer.sessionVersion };
    await expect(resolveSessionUser(db, { ...claims, sessionId: idle }, IDLE)).resolves.toBeNull();
    await expect(resolveSessionUser(db, { ...claims, sessionId: active }, IDLE)).resolves.toMatchObject({
      id: viewer.id,
    });
    expect(Date.now() - (await rowOf(active))!.lastSeenAt.getTime()).toBeLessThan(60_000);
    // A shorter SESSION_IDLE_HOURS ends the same session sooner.
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '2 hours'` })
      .where(eq(sessions.id, active));
    await expect(resolveSessionUser(db, { ...claims, sessionId: active }, { idleHours: 1 })).resolves.toBeNull();
    await expect(resolveSessionUser(db, { ...claims, sessionId: active }, IDLE)).resolves.not.toBeNull();
  });

  it('last seen is written at most once a minute, not on every request', async () => {
    const viewer = (await getUserCredentialsByEmail(db, { email: 'viewer@demo.test' }))!;
    const id = await signInRow(viewer.id, viewer.sessionVersion);
    const claims = { userId: viewer.id, sessionVersion: viewer.sessionVersion, sessionId: id };
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '30 seconds'` })
      .where(eq(sessions.id, id));
    const before = (await rowOf(id))!.lastSeenAt;
    await resolveSessionUser(db, claims, IDLE);
    await resolveSessionUser(db, claims, IDLE);
    expect((await rowOf(id))!.lastSeenAt).toEqual(before);
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '61 seconds'` })
      .where(eq(sessions.id, id));
    await resolveSessionUser(db, claims, IDLE);
    expect(Date.now() - (await rowOf(id))!.lastSeenAt.getTime()).toBeLessThan(5_000);
  });

  it('absolute expiry: a session past its end has ended, however recently it was seen', async () => {
    const viewer = (await getUserCredentialsByEmail(db, { email: 'viewer@demo.test' }))!;
    const id = await signInRow(viewer.id, viewer.sessionVersion);
    await db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '31 days'`, expiresAt: sql`now() - interval '1 day'` })
      .where(eq(sessions.id, id));
    await expect(
      resolveSessionUser(db, { userId: viewer.id, sessionVersion: viewer.sessionVersion, sessionId: id }, IDLE),
    ).resolves.toBeNull();
    expect(await listLiveSessions(db, { userId: viewer.id, ...IDLE })).not.toContainEqual(
      expect.objectContaining({ id }),
    );
  });
});

describe('prune-sessions job', () => {
  it('deletes sessions idle too long or past their end, in batches, and keeps live ones', async () => {
    const viewer = (await getUserCredentialsByEmail(db, { email: 'viewer@demo.test' }))!;
    const [idle, expired, live] = [
      await signInRow(viewer.id, viewer.sessionVersion),
      await signInRow(viewer.id, viewer.sessionVersion),
      await signInRow(viewer.id, viewer.sessionVersion),
    ];
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '25 hours'` })
      .where(eq(sessions.id, idle));
    await db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '31 days'`, expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessions.id, expired));
    const summary = await pruneSessionsJob.run(db, { idleHours: 24, batchSize: 1, maxBatches: 50 });
    expect(summary.prunedSessions).toBeGreaterThanOrEqual(2);
    expect([await rowOf(idle), await rowOf(expired)]).toEqual([undefined, undefined]);
    expect(await rowOf(live)).toMatchObject({ id: live });
  });
});

describe('session version (sign out everywhere)', () => {
  it('a session is valid while its version matches; after a bump every older session is refused', async () => {
    const user = await authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, nextIp());
    const sessionId = await signInRow(user.id, user.sessionVersion);
    const claims = { userId: user.id, sessionVersion: user.sessionVersion, sessionId };
    await expect(resolveSessionUser(db, claims, IDLE)).resolves.toMatchObject({
      id: user.id,
      email: 'viewer@demo.test',
    });

    const next = await bumpSessionVersion(db, { userId: user.id });
    expect(next).toBe(user.sessionVersion + 1);
    await expect(resolveSessionUser(db, claims, IDLE)).resolves.toBeNull();
    // Tokens from before session versions existed count as version 1: refused too.
    await expect(resolveSessionUser(db, { userId: user.id, sessionId }, IDLE)).resolves.toBeNull();
    // The bumped-out rows are no longer listed as live.
    expect(await listLiveSessions(db, { userId: user.id, ...IDLE })).toEqual([]);

    const again = await authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, nextIp());
    expect(again.sessionVersion).toBe(next);
    const fresh = await signInRow(again.id, again.sessionVersion);
    await expect(
      resolveSessionUser(db, { userId: again.id, sessionVersion: again.sessionVersion, sessionId: fresh }, IDLE),
    ).resolves.toMatchObject({ id: user.id });
  });

  it('a deleted user has no session', async () => {
    await expect(
      resolveSessionUser(
        db,
        { userId: '00000000-0000-4000-8000-000000000000', sessionVersion: 1, sessionId: randomUUID() },
        IDLE,
      ),
    ).resolves.toBeNull();
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
    expect(token).toMatchObject({
      userId: admin!.id,
      sessionVersion: admin!.sessionVersion,
      sessionId: expect.any(String),
    });
    // GitHub sign-ins get a session row too.
    expect(await rowOf(token.sessionId as string)).toMatchObject({ userId: admin!.id });
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
