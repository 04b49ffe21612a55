import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSession } from '@/db/queries/sessions';
import { upsertUser } from '@/db/queries/users';
import { upsertWorkspace } from '@/db/queries/workspaces';
import { emailChanges, outboxEmails, sessions, users } from '@/db/schema';
import { createTestDatabase } from '@/testing/db/test-database';
import {
  confirmEmailChange,
  EMAIL_CHANGE_WINDOW_MS,
  EMAIL_CHANGES_LIMITED,
  MAX_EMAIL_CHANGES_PER_WINDOW,
  requestEmailChange,
} from './email-change';
import { hashPassword } from './password';
import { resolveSessionUser } from './session-user';

const PASSWORD = 'a-long-test-password-2';
const { db } = await createTestDatabase({ max: 10 });
const passwordHash = await hashPassword(PASSWORD);
const workspace = await upsertWorkspace(db, { slug: `ec-${randomUUID().slice(0, 8)}`, name: 'Email change' });

const email = () => `u-${randomUUID()}@email-change.test`;
const newUser = () => upsertUser(db, { email: email(), name: 'Changer', passwordHash });

const ask = (user: { id: string; email: string }, newEmail: string, password = PASSWORD, now?: Date) =>
  requestEmailChange(db, {
    user,
    newEmail,
    password,
    workspaceId: workspace.id,
    origin: 'http://semel.test',
    smtpUrl: null,
    now,
  });

/** Follows a link from a browser without a session of its own to keep. */
const follow = (token: string, userId: string) => confirmEmailChange(db, { token, userId, keepSessionId: null });

/** The link's token, read from the email stored for the Outbox (as the member would click it). */
async function linkSentTo(address: string) {
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address));
  const token = /\/email-change\/([^\s]+)/.exec(mail!.body)![1]!;
  return { mail: mail!, token };
}

const emailOf = async (userId: string) =>
  (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email;

describe('changing one’s email', () => {
  it('sends a link to the new address and changes the email only when it is followed, once', async () => {
    const user = await newUser();
    const target = email();
    expect(await ask(user, target.toUpperCase())).toMatchObject({ ok: true });
    expect(await emailOf(user.id)).toBe(user.email); // not yet
    const { mail, token } = await linkSentTo(target);
    expect(mail.userId).toBe(user.id);
    const [row] = await db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(mail.body).not.toContain(row!.secretHash); // only the hash is stored, the secret only mailed
    expect(token).not.toContain(row!.secretHash);

    expect(await follow(token, user.id)).toEqual({ changed: true, email: target });
    expect(await emailOf(user.id)).toBe(target);
    expect(await follow(token, user.id)).toEqual({ changed: false, reason: 'invalid' });
  });

  it('refuses a wrong password, the same email, and an email another account uses, as field errors', async () => {
    const user = await newUser();
    const other = await newUser();
    expect(await ask(user, email(), 'wrong password')).toMatchObject({ ok: false, field: 'password' });
    expect(await ask(user, user.email)).toMatchObject({ ok: false, field: 'email' });
    expect(await ask(user, other.email)).toEqual({
      ok: false,
      field: 'email',
      message: 'Another account uses this email.',
    });
    expect(await db.select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toHaveLength(0);
  });

  it('a link whose address was taken meanwhile is a clash, writes nothing, and works once the address is free', async () => {
    const user = await newUser();
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    const squatter = await upsertUser(db, { email: target, name: 'Squatter', passwordHash });
    expect(await follow(token, user.id)).toEqual({ changed: false, reason: 'taken' });
    expect(await emailOf(user.id)).toBe(user.email);
    await db.delete(users).where(eq(users.id, squatter.id));
    expect(await follow(token, user.id)).toEqual({ changed: true, email: target });
  });

  it('an expired link, a forged secret or another user’s session changes nothing', async () => {
    const user = await newUser();
    const intruder = await newUser();
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    expect(await follow(token, intruder.id)).toEqual({ changed: false, reason: 'invalid' });
    const forged = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    expect(await follow(forged, user.id)).toEqual({
      changed: false,
      reason: 'invalid',
    });
    expect(await follow('nonsense', user.id)).toEqual({
      changed: false,
      reason: 'invalid',
    });
    await db
      .update(emailChanges)
      .set({ expiresAt: sql`now() - interval '1 second'`, createdAt: sql`now() - interval '25 hours'` })
      .where(eq(emailChanges.userId, user.id));
    expect(await follow(token, user.id)).toEqual({ changed: false, reason: 'invalid' });
    expect(await emailOf(user.id)).toBe(user.email);
  });

  it('the link expires 24 hours after it was asked for', async () => {
    const user = await newUser();
    await ask(user, email());
    const [row] = await db
      .select({ hours: sql<number>`extract(epoch from (expires_at - created_at)) / 3600` })
      .from(emailChanges)
      .where(eq(emailChanges.userId, user.id));
    expect(Number(row!.hours)).toBeCloseTo(24, 1);
  });

  it('two tabs following the same link at once change the email once', async () => {
    const user = await newUser();
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    const results = await Promise.all([1, 2, 3].map(() => follow(token, user.id)));
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.filter((r) => !r.changed)).toHaveLength(2);
  });

  it('a user is limited to five requests an hour, wrong passwords included; the sixth writes and sends nothing', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) expect(await ask(user, email(), 'wrong password')).toMatchObject({ field: 'password' });
    for (let i = 0; i < 2; i++) expect(await ask(user, email())).toMatchObject({ ok: true });
    const target = email();
    expect(await ask(user, target)).toEqual({ ok: false, limited: true, message: EMAIL_CHANGES_LIMITED });
    expect(await db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, target))).toEqual([]);
    expect(await db.select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toHaveLength(2);
    // Another user has a limit of their own; the window ends after an hour.
    expect(await ask(await newUser(), email())).toMatchObject({ ok: true });
    const later = new Date(Date.now() + EMAIL_CHANGE_WINDOW_MS + 1000);
    expect(await ask(user, target, PASSWORD, later)).toMatchObject({ ok: true });
  });

  it('twelve parallel requests of one user cannot pass the limit: five links, seven refusals', async () => {
    const user = await newUser();
    const results = await Promise.all(Array.from({ length: 12 }, () => ask(user, email())));
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_EMAIL_CHANGES_PER_WINDOW);
    expect(results.filter((r) => !r.ok && 'limited' in r)).toHaveLength(12 - MAX_EMAIL_CHANGES_PER_WINDOW);
    expect(await db.select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toHaveLength(
      MAX_EMAIL_CHANGES_PER_WINDOW,
    );
  });

  it('confirming ends every other session of the user at once; the confirming one and other users’ stay', async () => {
    const user = await newUser();
    const bystander = await newUser();
    const signIn = (userId: string) =>
      createSession(db, { userId, sessionVersion: 1, userAgent: 'vitest', address: '10.0.0.1', maxDays: 30 });
    const [here, phone, laptop, theirs] = await Promise.all([
      signIn(user.id),
      signIn(user.id),
      signIn(user.id),
      signIn(bystander.id),
    ]);
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    expect(await confirmEmailChange(db, { token, userId: user.id, keepSessionId: here })).toEqual({
      changed: true,
      email: target,
    });
    const live = (userId: string, sessionId: string) =>
      resolveSessionUser(db, { userId, sessionVersion: 1, sessionId }, { idleHours: 24 });
    expect(await live(user.id, here)).toMatchObject({ id: user.id, email: target });
    expect(await live(user.id, phone)).toBeNull();
    expect(await live(user.id, laptop)).toBeNull();
    expect(await live(bystander.id, theirs)).toMatchObject({ id: bystander.id });
    expect((await db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.id)).toEqual([here]);
  });

  it('a refused confirmation (address taken, or a wrong link) ends no session', async () => {
    const user = await newUser();
    const other = await createSession(db, {
      userId: user.id,
      sessionVersion: 1,
      userAgent: 'vitest',
      address: '10.0.0.2',
      maxDays: 30,
    });
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    await upsertUser(db, { email: target, name: 'Squatter', passwordHash });
    expect(await confirmEmailChange(db, { token, userId: user.id, keepSessionId: null })).toEqual({
      changed: false,
      reason: 'taken',
    });
    expect(await confirmEmailChange(db, { token: 'nonsense', userId: user.id, keepSessionId: null })).toMatchObject({
      changed: false,
    });
    expect((await db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.id)).toEqual([other]);
  });
});
