import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listOutboxEmails } from '@/db/queries/notification-sends';
import { addMembership } from '@/db/queries/workspaces';
import { outboxEmails, passwordTokens, users } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { hashPassword, verifyPassword } from './password';
import {
  MAX_RESETS_PER_ADDRESS,
  MAX_RESETS_PER_EMAIL,
  RESET_TOKEN_TTL_MS,
  requestPasswordReset,
  setPasswordWithToken,
} from './password-reset';

const { db } = await createTestDatabase({ max: 12 });
const NEW_PASSWORD = 'violet kettle harbour 42';
let workspaceId = '';
let n = 0;
/** A member with a password, and a fresh client address per test so the per-address window is its own. */
async function member() {
  const user = await makeUser(db);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword('old password, long enough') })
    .where(eq(users.id, user.id));
  await addMembership(db, { workspaceId, userId: user.id, role: 'manager' });
  return user;
}
const address = () => `198.51.100.${++n}`;
const outboxFor = (userId: string) => db.select().from(outboxEmails).where(eq(outboxEmails.userId, userId));
const linkToken = (body: string) =>
  new URL(/https?:\/\/\S+\/password\?token=\S+/.exec(body)![0]).searchParams.get('token')!;
const sessionVersion = async (userId: string) =>
  (await db.select({ v: users.sessionVersion }).from(users).where(eq(users.id, userId)))[0]!.v;
const tokenCount = async (userId: string) =>
  (await db.select({ n: count() }).from(passwordTokens).where(eq(passwordTokens.userId, userId)))[0]!.n;

beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
});

const request = (email: string, ip = address(), now?: Date) =>
  requestPasswordReset(db, { email, address: ip, now, origin: 'https://semel.example', smtpUrl: null });

describe('forgot password: a one-time link by email, one hour, hash stored', () => {
  it('emails a link (into the Outbox without SMTP) that sets the password once and ends every session', async () => {
    const user = await member();
    const before = await sessionVersion(user.id);
    const result = await request(user.email.toUpperCase());
    await result.deliver();
    const [email] = await outboxFor(user.id);
    expect(email).toMatchObject({
      toAddress: user.email,
      workspaceId,
      sendId: null,
      subject: 'Reset your Semel password',
    });
    const token = linkToken(email!.body);
    // Only its own user sees it in the Outbox: a workspace admin reading it could take the account over.
    const admin = await makeUser(db);
    await addMembership(db, { workspaceId, userId: admin.id, role: 'admin' });
    const adminSees = await listOutboxEmails(db, { workspaceId, userId: null, viewerId: admin.id, limit: 500 });
    expect(adminSees.map((e) => e.id)).not.toContain(email!.id);
    const ownSees = await listOutboxEmails(db, { workspaceId, userId: user.id, viewerId: user.id, limit: 500 });
    expect(ownSees.map((e) => e.id)).toEqual([email!.id]);
    // Only the hash is stored.
    const [row] = await db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(row!.tokenHash).not.toBe(token);
    expect(row!.purpose).toBe('reset');

    // A weak password is refused and leaves the link usable.
    expect(await setPasswordWithToken(db, { token, password: 'qwerty123456' })).toMatchObject({ kind: 'invalid' });
    expect(await setPasswordWithToken(db, { token, password: NEW_PASSWORD })).toEqual({
      kind: 'done',
      email: user.email,
    });
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(NEW_PASSWORD, after!.passwordHash!)).toBe(true);
    expect(after!.sessionVersion).toBe(before + 1);
    // Single use.
    expect(await setPasswordWithToken(db, { token, password: 'a different long passphrase' })).toEqual({
      kind: 'ended',
    });
  });

  it('two submits of one link at once: one sets the password, the other is told the link has ended', async () => {
    const user = await member();
    await (await request(user.email)).deliver();
    const token = linkToken((await outboxFor(user.id))[0]!.body);
    const results = await Promise.all([
      setPasswordWithToken(db, { token, password: 'first of two passphrases' }),
      setPasswordWithToken(db, { token, password: 'second of two passphrases' }),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(['done', 'ended']);
    expect(await sessionVersion(user.id)).toBe(2);
  });

  it('expires after one hour; using one link ends the user’s other links', async () => {
    const user = await member();
    const t0 = new Date(Date.now() - 3 * RESET_TOKEN_TTL_MS);
    await (await request(user.email, address(), t0)).deliver();
    const [old] = await outboxFor(user.id);
    const late = new Date(t0.getTime() + RESET_TOKEN_TTL_MS + 1000);
    expect(await setPasswordWithToken(db, { token: linkToken(old!.body), password: NEW_PASSWORD, now: late })).toEqual({
      kind: 'ended',
    });

    await (await request(user.email)).deliver();
    await (await request(user.email)).deliver();
    const fresh = (await outboxFor(user.id)).filter((e) => e.id !== old!.id).map((e) => linkToken(e.body));
    expect(fresh).toHaveLength(2);
    const inTime = new Date(Date.now() + RESET_TOKEN_TTL_MS - 60_000);
    expect(await setPasswordWithToken(db, { token: fresh[0]!, password: NEW_PASSWORD, now: inTime })).toMatchObject({
      kind: 'done',
    });
    expect(await setPasswordWithToken(db, { token: fresh[1]!, password: NEW_PASSWORD })).toEqual({ kind: 'ended' });
  });

  it('an unknown email gets the same answer, and nothing is written or sent', async () => {
    const user = await member();
    const known = await request(user.email);
    const unknown = await request('nobody-here@test.test');
    // The answer is made before any link exists, for either.
    expect(await tokenCount(user.id)).toBe(0);
    expect(Object.keys(unknown)).toEqual(Object.keys(known));
    expect(unknown.limited).toBe(known.limited);
    const [outboxBefore, tokensBefore] = await Promise.all([
      db.select({ n: count() }).from(outboxEmails),
      db.select({ n: count() }).from(passwordTokens),
    ]);
    await unknown.deliver();
    expect(await db.select({ n: count() }).from(outboxEmails)).toEqual(outboxBefore);
    expect(await db.select({ n: count() }).from(passwordTokens)).toEqual(tokensBefore);
  });
});

describe('forgot password: rate limits per email and per address, counted atomically', () => {
  it(`per email: ${MAX_RESETS_PER_EMAIL} links an hour from any addresses; 12 parallel requests make exactly that many`, async () => {
    const user = await member();
    const results = await Promise.all(Array.from({ length: 12 }, () => request(user.email)));
    await Promise.all(results.map((r) => r.deliver()));
    expect(results.filter((r) => !r.limited)).toHaveLength(MAX_RESETS_PER_EMAIL);
    expect(await tokenCount(user.id)).toBe(MAX_RESETS_PER_EMAIL);
    // An hour later the window starts again.
    const later = new Date(Date.now() + 61 * 60_000);
    expect((await request(user.email, address(), later)).limited).toBe(false);
  });

  it(`per address: ${MAX_RESETS_PER_ADDRESS} requests an hour across emails, then refused (for known emails too)`, async () => {
    const ip = address();
    const sprayed = await Promise.all(
      Array.from({ length: MAX_RESETS_PER_ADDRESS }, (_, i) => request(`spray-${i}@test.test`, ip)),
    );
    expect(sprayed.every((r) => !r.limited)).toBe(true);
    const user = await member();
    const refused = await request(user.email, ip);
    await refused.deliver();
    expect(refused.limited).toBe(true);
    expect(await tokenCount(user.id)).toBe(0);
    // From another address the same member still gets a link.
    const other = await request(user.email);
    await other.deliver();
    expect(other.limited).toBe(false);
    expect(await tokenCount(user.id)).toBe(1);
    // The windows are rows keyed by email and address, no plain email or address beyond that.
    const [row] = await db.execute<{ count: number }>(
      sql`select count from password_reset_windows where key = ${`ip:${ip}`}`,
    );
    expect(row!.count).toBe(MAX_RESETS_PER_ADDRESS + 1);
  });
});
