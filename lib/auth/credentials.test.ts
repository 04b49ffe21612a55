import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getWorkspaceBySlug } from '@/db/queries/workspaces';
import { loginAttempts } from '@/db/schema';
import { seedDemoData } from '@/scripts/seed/seed';
import { createTestDatabase } from '@/testing/db/test-database';
import { authenticate, SIGN_IN_ERRORS } from './credentials';
import { MAX_FAILED_LOGINS } from './throttle';

const PASSWORD = 'demo-password-for-tests';
const { db } = await createTestDatabase();

beforeAll(async () => {
  await seedDemoData(db, { password: PASSWORD, encryptionKey: randomBytes(32).toString('base64') });
});

/** A fresh IP per test, so throttling in one test cannot leak into another. */
let ipCounter = 0;
const nextIp = () => `10.0.0.${++ipCounter}`;

async function failTimes(email: string, ip: string, times: number) {
  for (let i = 0; i < times; i++) {
    await expect(authenticate(db, { email, password: `wrong-${i}` }, ip)).rejects.toThrow(SIGN_IN_ERRORS.invalid);
  }
}

describe('authenticate (email + password)', () => {
  it('signs in a seeded user and returns the workspace and role', async () => {
    const demo = await getWorkspaceBySlug(db, { slug: 'demo' });
    const user = await authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, nextIp());
    expect(user).toMatchObject({
      email: 'manager@demo.test',
      name: 'Max Manager',
      workspaceId: demo!.id,
      role: 'manager',
    });
    expect(user).not.toHaveProperty('passwordHash');
  });

  it('normalises the email (case and spaces)', async () => {
    const user = await authenticate(db, { email: '  Admin@Demo.TEST ', password: PASSWORD }, nextIp());
    expect(user).toMatchObject({ email: 'admin@demo.test', role: 'admin' });
  });

  it('gives the same generic error for a wrong password and an unknown email', async () => {
    const ip = nextIp();
    // Both handlers are attached before either promise settles (no unhandled rejection in between).
    await Promise.all([
      expect(authenticate(db, { email: 'viewer@demo.test', password: 'not-it' }, ip)).rejects.toThrow(
        new Error(SIGN_IN_ERRORS.invalid),
      ),
      expect(authenticate(db, { email: 'nobody@demo.test', password: PASSWORD }, ip)).rejects.toThrow(
        new Error(SIGN_IN_ERRORS.invalid),
      ),
    ]);
    expect(SIGN_IN_ERRORS.invalid).toBe('InvalidCredentials');
  });

  it('rejects malformed input with the same generic error', async () => {
    for (const input of [
      undefined,
      {},
      { email: 'not-an-email', password: PASSWORD },
      { email: 'admin@demo.test', password: '' },
    ]) {
      await expect(authenticate(db, input, nextIp())).rejects.toThrow(SIGN_IN_ERRORS.invalid);
    }
  });

  it(`refuses even the right password after ${MAX_FAILED_LOGINS} failures for an email + IP`, async () => {
    const ip = nextIp();
    await failTimes('admin@other.test', ip, MAX_FAILED_LOGINS);
    await expect(authenticate(db, { email: 'admin@other.test', password: PASSWORD }, ip)).rejects.toThrow(
      new Error(SIGN_IN_ERRORS.throttled),
    );
    expect(SIGN_IN_ERRORS.throttled).toBe('TooManyAttempts');

    // Another IP is not throttled for the same email.
    await expect(authenticate(db, { email: 'admin@other.test', password: PASSWORD }, nextIp())).resolves.toMatchObject({
      role: 'admin',
    });
    // Nor is another email from the same IP.
    await expect(authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, ip)).resolves.toMatchObject({
      role: 'manager',
    });
  });

  it('throttles unknown emails the same way (no enumeration through the limit)', async () => {
    const ip = nextIp();
    await failTimes('ghost@demo.test', ip, MAX_FAILED_LOGINS);
    await expect(authenticate(db, { email: 'ghost@demo.test', password: PASSWORD }, ip)).rejects.toThrow(
      SIGN_IN_ERRORS.throttled,
    );
  });

  it(`allows the right password after ${MAX_FAILED_LOGINS - 1} failures`, async () => {
    const ip = nextIp();
    await failTimes('viewer@demo.test', ip, MAX_FAILED_LOGINS - 1);
    await expect(authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, ip)).resolves.toMatchObject({
      role: 'viewer',
    });
  });

  it('does not count failures older than 15 minutes', async () => {
    const ip = nextIp();
    const old = new Date(Date.now() - 16 * 60 * 1000);
    await db.insert(loginAttempts).values(
      Array.from({ length: MAX_FAILED_LOGINS }, () => ({
        email: 'admin@demo.test',
        ip,
        network: ip,
        succeeded: false,
        createdAt: old,
      })),
    );
    await expect(authenticate(db, { email: 'admin@demo.test', password: PASSWORD }, ip)).resolves.toMatchObject({
      role: 'admin',
    });
  });

  // Failures per email from many addresses only slow sign-in down (lib/auth/sign-in-limits.test.ts): a refusal
  // there would let anyone lock a user out.
});
