import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listOpenInvitations } from '@/db/queries/invitations';
import { addMembership, listMembers } from '@/db/queries/workspaces';
import { auditLog, memberships, outboxEmails, users, workspaceInvitations } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { deliverDueNotifications } from '@/lib/notifications/send';
import { hashInvitationToken, invitationToken } from './invitation-token';
import { acceptInvitation, inviteMember, resendInvitation, revokeInvitationAudited } from './invitations';

const { db } = await createTestDatabase({ max: 10 });
const KEY = Buffer.alloc(32, 3).toString('base64');
const ORIGIN = 'https://semel.test';
const signUp = { name: 'New Person', passwordHash: 'scrypt$test' };

let workspaceId = '';
let admin = { id: '', email: '' };
beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  admin = await makeUser(db);
  await addMembership(db, { workspaceId, userId: admin.id, role: 'admin' });
});

/** Invites `email` and sends its email through the real sender into the Outbox; returns the link's token. */
async function invite(email: string, role: 'admin' | 'manager' | 'viewer' = 'manager', now?: Date) {
  const invited = await inviteMember(db, { workspaceId, actorUserId: admin.id, email, role, key: KEY, now });
  if (!invited.ok) throw new Error(invited.reason);
  await deliverDueNotifications(db, { sendIds: [invited.sendId], smtpUrl: null, encryptionKey: KEY, origin: ORIGIN });
  const [email1] = await db.select().from(outboxEmails).where(eq(outboxEmails.sendId, invited.sendId));
  const token = /\/invite\/(\S+)/.exec(email1!.body)![1]!;
  return { ...invited, token, email: email1! };
}

const membershipsOf = (email: string) =>
  db
    .select({ role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(sql`${users.email} = ${email} and ${memberships.workspaceId} = ${workspaceId}`);

describe('invitations', () => {
  it('the email goes through the Outbox with a link; only the token’s hash is stored; accepting signs up and joins', async () => {
    const { token, email, invitationId } = await invite('New.Person@Example.test');
    expect(email.toAddress).toBe('new.person@example.test');
    expect(email.subject).toContain('Join');
    expect(email.body).toContain(`${ORIGIN}/invite/${token}`);
    const [row] = await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, invitationId));
    expect(row!.tokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token.split('.')[1]);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(7 * 86_400_000 - 60_000);

    const accepted = await acceptInvitation(db, { token, signedIn: null, signUp });
    expect(accepted).toMatchObject({ ok: true, workspaceId, newUser: true });
    expect(await membershipsOf('new.person@example.test')).toEqual([{ role: 'manager' }]);
    const actions = (await db.select().from(auditLog).where(eq(auditLog.workspaceId, workspaceId))).map(
      (a) => a.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['invitation.created', 'invitation.accepted', 'member.added']));
  });

  it('two tabs accepting one invitation at once make one user and one membership; the second is told it was used', async () => {
    const { token, invitationId } = await invite('two-tabs@example.test');
    // Both accepts queue behind a lock on the invitation row, then run against each other when it is released.
    const release = await holdLock(db, sql`select 1 from workspace_invitations where id = ${invitationId} for update`);
    const first = acceptInvitation(db, { token, signedIn: null, signUp });
    const second = acceptInvitation(db, { token, signedIn: null, signUp });
    const [a, b] = [settled(first), settled(second)];
    await untilBlocked(db, '\n      select i.id');
    expect(a.done || b.done).toBe(false);
    await release();
    const results = await Promise.all([first, second]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'used' }]);
    expect(await membershipsOf('two-tabs@example.test')).toHaveLength(1);
    expect(await db.select().from(users).where(eq(users.email, 'two-tabs@example.test'))).toHaveLength(1);
  });

  it('a double click by a signed-in invitee (parallel accepts) is one membership', async () => {
    const existing = await makeUser(db, 'signed-in@example.test');
    const { token } = await invite('signed-in@example.test', 'viewer');
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        acceptInvitation(db, { token, signedIn: { id: existing.id, email: existing.email } }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'used')).toBe(true);
    expect(await membershipsOf('signed-in@example.test')).toEqual([{ role: 'viewer' }]);
  });

  it('refuses an expired, a revoked, a used, an altered link and another address’s signed-in user; writes nothing', async () => {
    // Issued 8 days ago: the sender does not send it any more (final), and the link is refused.
    const stale = await inviteMember(db, {
      workspaceId,
      actorUserId: admin.id,
      email: 'expired@example.test',
      role: 'manager',
      key: KEY,
      now: new Date(Date.now() - 8 * 86_400_000),
    });
    if (!stale.ok) throw new Error(stale.reason);
    expect(
      await deliverDueNotifications(db, { sendIds: [stale.sendId], smtpUrl: null, encryptionKey: KEY, origin: ORIGIN }),
    ).toMatchObject({ claimed: 1, sent: 0, givenUp: 1 });
    const expiredToken = invitationToken(stale.invitationId, 1, KEY);
    expect(await acceptInvitation(db, { token: expiredToken, signedIn: null, signUp })).toEqual({
      ok: false,
      reason: 'expired',
    });
    const revoked = await invite('revoked@example.test');
    expect(await revokeInvitationAudited(db, { workspaceId, actorUserId: admin.id, id: revoked.invitationId })).toBe(
      true,
    );
    expect(await acceptInvitation(db, { token: revoked.token, signedIn: null, signUp })).toEqual({
      ok: false,
      reason: 'revoked',
    });
    const used = await invite('used@example.test');
    expect((await acceptInvitation(db, { token: used.token, signedIn: null, signUp })).ok).toBe(true);
    expect(await acceptInvitation(db, { token: used.token, signedIn: null, signUp })).toEqual({
      ok: false,
      reason: 'used',
    });
    const altered = `${used.invitationId}.${'A'.repeat(43)}`;
    expect(await acceptInvitation(db, { token: altered, signedIn: null, signUp })).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const other = await makeUser(db);
    const mismatch = await invite('mismatch@example.test');
    expect(
      await acceptInvitation(db, { token: mismatch.token, signedIn: { id: other.id, email: other.email } }),
    ).toEqual({ ok: false, reason: 'email_mismatch' });
    for (const email of ['expired@example.test', 'revoked@example.test', 'mismatch@example.test'])
      expect(await db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await membershipsOf(other.email)).toEqual([]);
  });

  it('a resend issues a new link and a new email; the old link stops working', async () => {
    const first = await invite('resend@example.test');
    const resent = await resendInvitation(db, { workspaceId, actorUserId: admin.id, id: first.invitationId, key: KEY });
    await deliverDueNotifications(db, { sendIds: [resent!.sendId], smtpUrl: null, encryptionKey: KEY, origin: ORIGIN });
    const [second] = await db.select().from(outboxEmails).where(eq(outboxEmails.sendId, resent!.sendId));
    const token = /\/invite\/(\S+)/.exec(second!.body)![1]!;
    expect(token).toBe(invitationToken(first.invitationId, 2, KEY));
    expect(token).not.toBe(first.token);
    expect(await acceptInvitation(db, { token: first.token, signedIn: null, signUp })).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect((await acceptInvitation(db, { token, signedIn: null, signUp })).ok).toBe(true);
  });

  it('inviting a member, or an address already invited, is refused (the open-invitation constraint)', async () => {
    expect(
      await inviteMember(db, { workspaceId, actorUserId: admin.id, email: admin.email, role: 'viewer', key: KEY }),
    ).toEqual({ ok: false, reason: 'member' });
    await invite('twice@example.test');
    const again = await Promise.all(
      [1, 2].map(() =>
        inviteMember(db, { workspaceId, actorUserId: admin.id, email: 'twice@example.test', role: 'viewer', key: KEY }),
      ),
    );
    expect(again).toEqual([
      { ok: false, reason: 'invited' },
      { ok: false, reason: 'invited' },
    ]);
  });

  it('I6 — tenancy: another workspace cannot resend, revoke or list this workspace’s invitations', async () => {
    const { invitationId } = await invite('tenant@example.test');
    const other = await makeWorkspace(db);
    expect(await revokeInvitationAudited(db, { workspaceId: other.id, actorUserId: admin.id, id: invitationId })).toBe(
      false,
    );
    expect(
      await resendInvitation(db, { workspaceId: other.id, actorUserId: admin.id, id: invitationId, key: KEY }),
    ).toBeNull();
    expect(await listOpenInvitations(db, { workspaceId: other.id })).toEqual([]);
    expect((await listOpenInvitations(db, { workspaceId })).map((i) => i.id)).toContain(invitationId);
    expect((await listMembers(db, { workspaceId: other.id })).length).toBe(0);
  });
});
