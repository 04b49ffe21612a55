import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { upsertUser } from '@/db/queries/users';
import { upsertWorkspace } from '@/db/queries/workspaces';
import { emailChanges, outboxEmails, users } from '@/db/schema';
import { createTestDatabase } from '@/db/testing/test-database';
import { confirmEmailChange, requestEmailChange } from './email-change';
import { hashPassword } from './password';

const PASSWORD = 'a-long-test-password-2';
const { db } = await createTestDatabase();
const passwordHash = await hashPassword(PASSWORD);
const workspace = await upsertWorkspace(db, { slug: `ec-${randomUUID().slice(0, 8)}`, name: 'Email change' });

const email = () => `u-${randomUUID()}@email-change.test`;
const newUser = () => upsertUser(db, { email: email(), name: 'Changer', passwordHash });

const ask = (user: { id: string; email: string }, newEmail: string, password = PASSWORD) =>
  requestEmailChange(db, {
    user,
    newEmail,
    password,
    workspaceId: workspace.id,
    origin: 'http://semel.test',
    smtpUrl: null,
  });

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

    expect(await confirmEmailChange(db, { token, userId: user.id })).toEqual({ changed: true, email: target });
    expect(await emailOf(user.id)).toBe(target);
    expect(await confirmEmailChange(db, { token, userId: user.id })).toEqual({ changed: false, reason: 'invalid' });
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
    expect(await confirmEmailChange(db, { token, userId: user.id })).toEqual({ changed: false, reason: 'taken' });
    expect(await emailOf(user.id)).toBe(user.email);
    await db.delete(users).where(eq(users.id, squatter.id));
    expect(await confirmEmailChange(db, { token, userId: user.id })).toEqual({ changed: true, email: target });
  });

  it('an expired link, a forged secret or another user’s session changes nothing', async () => {
    const user = await newUser();
    const intruder = await newUser();
    const target = email();
    await ask(user, target);
    const { token } = await linkSentTo(target);
    expect(await confirmEmailChange(db, { token, userId: intruder.id })).toEqual({ changed: false, reason: 'invalid' });
    const forged = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    expect(await confirmEmailChange(db, { token: forged, userId: user.id })).toEqual({
      changed: false,
      reason: 'invalid',
    });
    expect(await confirmEmailChange(db, { token: 'nonsense', userId: user.id })).toEqual({
      changed: false,
      reason: 'invalid',
    });
    await db
      .update(emailChanges)
      .set({ expiresAt: sql`now() - interval '1 second'`, createdAt: sql`now() - interval '25 hours'` })
      .where(eq(emailChanges.userId, user.id));
    expect(await confirmEmailChange(db, { token, userId: user.id })).toEqual({ changed: false, reason: 'invalid' });
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
    const results = await Promise.all([1, 2, 3].map(() => confirmEmailChange(db, { token, userId: user.id })));
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.filter((r) => !r.changed)).toHaveLength(2);
  });
});
