import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { networkLock } from '@/db/queries/login-attempts';
import { loginAttempts } from '@/db/schema';
import { holdLock, untilBlocked } from '@/testing/race';
import { seedDemoData } from '@/scripts/seed/seed';
import { createTestDatabase } from '@/testing/db/test-database';
import { parseAddressList } from '@/lib/net/address-list';
import { addressNetwork, clientAddress } from './client-address';
import { authenticate, SIGN_IN_ERRORS } from './credentials';
import { currentPeer, recordPeerAddresses } from './peer-address';
import {
  EMAIL_DELAY_MAX_MS,
  emailDelayMs,
  FAILED_LOGIN_WINDOW_MS,
  MAX_FAILED_LOGINS,
  MAX_FAILED_LOGINS_PER_IP,
  MAX_FAILED_LOGINS_PER_NETWORK,
  pruneExpiredLoginAttempts,
} from './throttle';

const PASSWORD = 'demo-password-for-tests';
const { db } = await createTestDatabase({ max: 30 });

beforeAll(async () => {
  await seedDemoData(db, { password: PASSWORD, encryptionKey: randomBytes(32).toString('base64') });
});

let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;
const failedRows = (email: string, ips: string[], createdAt = new Date()) =>
  ips.map((ip) => ({ email, ip, network: ip, succeeded: false, createdAt }));

describe('per email + IP', () => {
  it(`refuses even the right password after ${MAX_FAILED_LOGINS} failures from one address, not from another`, async () => {
    const ip = nextIp();
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      await expect(authenticate(db, { email: 'admin@demo.test', password: `no-${i}` }, ip)).rejects.toThrow(
        SIGN_IN_ERRORS.invalid,
      );
    await expect(authenticate(db, { email: 'admin@demo.test', password: PASSWORD }, ip)).rejects.toThrow(
      SIGN_IN_ERRORS.throttled,
    );
    await expect(authenticate(db, { email: 'admin@demo.test', password: PASSWORD }, nextIp())).resolves.toMatchObject({
      role: 'admin',
    });
  });
});

describe('the limit is taken before the password is checked (parallel guesses)', () => {
  it(`25 parallel wrong passwords from one address: at most ${MAX_FAILED_LOGINS} are checked, the rest refused`, async () => {
    const ip = nextIp();
    // Hold the address's lock so that all 25 are in flight at once, queued on it, before any is counted.
    const release = await holdLock(db, networkLock(ip));
    const guesses = Array.from({ length: 25 }, (_, i) =>
      authenticate(db, { email: 'manager@demo.test', password: `parallel-guess-${i}` }, ip).then(
        () => 'signed in',
        (error: Error) => error.message,
      ),
    );
    await untilBlocked(db, 'select pg_advisory_xact_lock');
    const waiting = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike 'select pg_advisory_xact_lock%'`);
    await release();
    const outcomes = await Promise.all(guesses);
    const tally = (what: string) => outcomes.filter((o) => o === what).length;

    expect([...waiting][0]!.n).toBeGreaterThan(1); // more than one guess was waiting in parallel
    expect(tally(SIGN_IN_ERRORS.invalid)).toBe(MAX_FAILED_LOGINS);
    expect(tally(SIGN_IN_ERRORS.throttled)).toBe(25 - MAX_FAILED_LOGINS);
    const recorded = await db
      .select({ succeeded: loginAttempts.succeeded })
      .from(loginAttempts)
      .where(eq(loginAttempts.ip, ip));
    expect(recorded).toHaveLength(MAX_FAILED_LOGINS); // refused guesses record nothing
  });

  it('a right password is recorded as a success: it does not count towards the limit', async () => {
    const ip = nextIp();
    for (let i = 0; i < MAX_FAILED_LOGINS + 2; i++)
      await expect(authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, ip)).resolves.toMatchObject({
        role: 'viewer',
      });
    const rows = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, ip));
    expect(rows.map((r) => r.succeeded)).toEqual(Array(MAX_FAILED_LOGINS + 2).fill(true));
  });
});

describe('IPv6: counted by /64 as well as by address', () => {
  it.each([
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8::/64'],
    ['203.0.113.7', '203.0.113.7'],
    ['unknown', 'unknown'],
  ])('%s counts in %s', (address, network) => expect(addressNetwork(address)).toBe(network));

  it(`refuses a guesser hopping addresses inside one /64 after ${MAX_FAILED_LOGINS_PER_NETWORK} failures; another /64 is not refused`, async () => {
    const hop = (i: number) => `2001:db8:77:1::${(i + 1).toString(16)}`;
    for (let i = 0; i < MAX_FAILED_LOGINS_PER_NETWORK; i++)
      await expect(authenticate(db, { email: 'admin@demo.test', password: `v6-${i}` }, hop(i))).rejects.toThrow(
        SIGN_IN_ERRORS.invalid,
      );
    await expect(authenticate(db, { email: 'admin@demo.test', password: PASSWORD }, hop(99))).rejects.toThrow(
      SIGN_IN_ERRORS.throttled,
    );
    await expect(
      authenticate(db, { email: 'admin@demo.test', password: PASSWORD }, '2001:db8:77:2::1'),
    ).resolves.toMatchObject({ role: 'admin' });
  });
});

describe('per IP across emails (password spraying)', () => {
  it(`refuses an address after ${MAX_FAILED_LOGINS_PER_IP} failures over many emails; other addresses are unaffected`, async () => {
    const ip = nextIp();
    // One or two guesses per email, never reaching the per-email+IP limit.
    await db.insert(loginAttempts).values(
      Array.from({ length: MAX_FAILED_LOGINS_PER_IP - 1 }, (_, i) => ({
        email: `user${i}@spray.test`,
        ip,
        network: ip,
        succeeded: false,
      })),
    );
    await expect(authenticate(db, { email: 'last@spray.test', password: 'guess' }, ip)).rejects.toThrow(
      SIGN_IN_ERRORS.invalid,
    );
    await expect(authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, ip)).rejects.toThrow(
      SIGN_IN_ERRORS.throttled,
    );
    await expect(authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, nextIp())).resolves.toMatchObject(
      { role: 'manager' },
    );
  });

  it('attempts without a known address are not refused as a spraying address (that would refuse everyone)', async () => {
    await db.insert(loginAttempts).values(
      Array.from({ length: MAX_FAILED_LOGINS_PER_IP }, (_, i) => ({
        email: `u${i}@unknown.test`,
        ip: 'unknown',
        network: 'unknown',
        succeeded: false,
      })),
    );
    await expect(
      authenticate(db, { email: 'manager@demo.test', password: PASSWORD }, 'unknown'),
    ).resolves.toMatchObject({ role: 'manager' });
  });
});

describe('per email from everywhere: slower, never locked out', () => {
  it('the delay grows with failures and has a cap', () => {
    expect([0, 9, 10, 11, 20, 60, 500].map(emailDelayMs)).toEqual([
      0,
      0,
      100,
      200,
      1100,
      EMAIL_DELAY_MAX_MS,
      EMAIL_DELAY_MAX_MS,
    ]);
  });

  it('the right password from a clean address still gets in after 60 failures elsewhere (after the delay)', async () => {
    await db.insert(loginAttempts).values(failedRows('viewer@demo.test', Array.from({ length: 60 }, nextIp)));
    const started = Date.now();
    await expect(authenticate(db, { email: 'viewer@demo.test', password: PASSWORD }, nextIp())).resolves.toMatchObject({
      role: 'viewer',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(emailDelayMs(60) - 50);
  });

  it('a wrong password is slowed down the same way (the delay does not reveal the answer)', async () => {
    await db.insert(loginAttempts).values(failedRows('admin@other.test', Array.from({ length: 20 }, nextIp)));
    const started = Date.now();
    await expect(authenticate(db, { email: 'admin@other.test', password: 'wrong' }, nextIp())).rejects.toThrow(
      SIGN_IN_ERRORS.invalid,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(emailDelayMs(20) - 50);
  });
});

describe('pruning', () => {
  it('deletes attempts older than the window and keeps recent ones', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - FAILED_LOGIN_WINDOW_MS - 60_000);
    await db
      .insert(loginAttempts)
      .values([
        ...failedRows('prune@demo.test', ['203.0.113.1', '203.0.113.2', '203.0.113.3'], old),
        ...failedRows('prune@demo.test', ['203.0.113.4'], now),
      ]);
    expect(await pruneExpiredLoginAttempts(db, { now, batchSize: 2 })).toBeGreaterThanOrEqual(3);
    const left = await db
      .select({ ip: loginAttempts.ip })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, 'prune@demo.test')));
    expect(left).toEqual([{ ip: '203.0.113.4' }]);
  });
});

describe('which address counts (TRUSTED_PROXIES)', () => {
  const none = parseAddressList('', { hostNames: false });
  const proxies = parseAddressList('10.0.0.0/8, 127.0.0.1', { hostNames: false });
  const rows: [string, string | undefined, string | undefined, typeof none, string][] = [
    ['no proxy trusted: a forged header is ignored', '203.0.113.9', '1.2.3.4', none, '203.0.113.9'],
    ['no proxy trusted: no header', '203.0.113.9', undefined, none, '203.0.113.9'],
    ['IPv4-mapped peer reads as IPv4', '::ffff:203.0.113.9', undefined, none, '203.0.113.9'],
    ['a trusted proxy names the client', '10.0.0.5', '198.51.100.7', proxies, '198.51.100.7'],
    ['a forged entry left of the real client is ignored', '10.0.0.5', '1.2.3.4, 198.51.100.7', proxies, '198.51.100.7'],
    ['two trusted hops', '127.0.0.1', '198.51.100.7, 10.0.0.6', proxies, '198.51.100.7'],
    ['an untrusted peer is the client even with a header', '203.0.113.9', '198.51.100.7', proxies, '203.0.113.9'],
    ['only proxies in the chain: the leftmost', '10.0.0.5', '10.0.0.9', proxies, '10.0.0.9'],
    [
      'no peer recorded (serverless host): the nearest hop',
      undefined,
      '1.2.3.4, 198.51.100.7',
      proxies,
      '198.51.100.7',
    ],
    ['no peer and no header', undefined, undefined, none, 'unknown'],
  ];
  for (const [name, peer, header, trusted, expected] of rows) {
    it(name, () => expect(clientAddress(peer, header, trusted)).toBe(expected));
  }

  it('the HTTP server records each request’s socket peer, whatever X-Forwarded-For says', async () => {
    recordPeerAddresses();
    const server = http.createServer((_req, res) => res.end(JSON.stringify(currentPeer() ?? null)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, headers: { 'x-forwarded-for': '1.2.3.4' }, agent: false }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c)).on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    server.close();
    const peer = JSON.parse(body) as { address: string; forwardedFor: string };
    expect(peer).toEqual({ address: '127.0.0.1', forwardedFor: '1.2.3.4' });
    expect(clientAddress(peer.address, peer.forwardedFor, none)).toBe('127.0.0.1');
  });
});
