import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { auditLog, memberships, users, workspaceInvitations } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { holdLock, settled, untilBlocked } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { encryptSecret } from '@/lib/crypto/secret-box';
import { getEnv } from '@/lib/env';
import { invitationToken } from '@/lib/teams/invitation-token';
import {
  acceptInvitation,
  acceptInvitationWithSso,
  inviteMember,
  revokeInvitationAudited,
} from '@/lib/teams/invitations';
import { getAuthOptions } from './options';
import {
  openSsoInvitation,
  rememberSsoInvitation,
  sealSsoInvitation,
  signInWithSsoInvitation,
  SSO_INVITATION_COOKIE,
  SSO_INVITATION_TTL_MS,
} from './sso-invitation';
import { WORKSPACE_COOKIE } from './workspace-cookie';

// The browser's cookie jar as the OIDC callback sees it (the only thing replaced: the database is real).
const jar = vi.hoisted(() => new Map<string, { value: string; options?: Record<string, unknown> }>());
vi.mock('next/headers', () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)!.value } : undefined),
    set: (name: string, value: string, options?: Record<string, unknown>) => jar.set(name, { value, options }),
    delete: (cookie: string | { name: string }) => jar.delete(typeof cookie === 'string' ? cookie : cookie.name),
  }),
}));

const testDb = await createTestDatabase({ max: 10 });
const { db } = testDb;
process.env.DATABASE_URL = testDb.url; // the sign-in callback uses the app's getDb()
const KEY = getEnv().APP_ENCRYPTION_KEY;

let workspace = { id: '', slug: '' };
let admin = { id: '' };
beforeAll(async () => {
  workspace = await makeWorkspace(db);
  admin = await makeUser(db);
  await addMembership(db, { workspaceId: workspace.id, userId: admin.id, role: 'admin' });
});

async function invite(email: string, now?: Date) {
  const invited = await inviteMember(db, {
    workspaceId: workspace.id,
    actorUserId: admin.id,
    email,
    role: 'manager',
    key: KEY,
    now,
  });
  if (!invited.ok) throw new Error(invited.reason);
  return { id: invited.invitationId, token: invitationToken(invited.invitationId, 1, KEY) };
}

const usersWith = (email: string) => db.select().from(users).where(eq(users.email, email));
const membershipsOf = (email: string) =>
  db
    .select({ role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(users.email, email), eq(memberships.workspaceId, workspace.id)));
const invitationRow = async (id: string) =>
  (await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, id)))[0]!;

describe('accepting an invitation through single sign-on', () => {
  it('the invited email (any case) makes a user without a password, named from the profile, one membership, audited', async () => {
    const { id, token } = await invite('sso-new@example.test');
    const result = await acceptInvitationWithSso(db, { token, email: 'SSO-New@Example.test', name: 'Sam Sso' });
    expect(result).toMatchObject({ ok: true, workspaceId: workspace.id, workspaceSlug: workspace.slug, newUser: true });
    const [user] = await usersWith('sso-new@example.test');
    expect(user).toMatchObject({ name: 'Sam Sso', passwordHash: null });
    expect(await membershipsOf('sso-new@example.test')).toEqual([{ role: 'manager' }]);
    expect(await invitationRow(id)).toMatchObject({ acceptedByUserId: user!.id, acceptedAt: expect.any(Date) });
    const audited = await db
      .select({ action: auditLog.action, detail: auditLog.detail, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspace.id), eq(auditLog.actorUserId, user!.id)));
    expect(audited).toEqual(
      expect.arrayContaining([
        { action: 'invitation.accepted', detail: { email: 'sso-new@example.test', method: 'oidc' }, actor: user!.id },
        { action: 'member.added', detail: { email: 'sso-new@example.test', role: 'manager' }, actor: user!.id },
      ]),
    );
  });

  it('an existing account with the invited email joins; its password and name stay', async () => {
    const existing = await makeUser(db, 'sso-existing@example.test');
    await db.update(users).set({ passwordHash: 'scrypt$kept' }).where(eq(users.id, existing.id));
    const { token } = await invite('sso-existing@example.test');
    expect(await acceptInvitationWithSso(db, { token, email: existing.email, name: 'Other Name' })).toMatchObject({
      ok: true,
      userId: existing.id,
      newUser: false,
    });
    expect((await usersWith(existing.email))[0]).toMatchObject({ passwordHash: 'scrypt$kept', name: existing.name });
    expect(await membershipsOf(existing.email)).toEqual([{ role: 'manager' }]);
  });

  it('two callbacks accepting one invitation at once make one user and one membership; the second is told it was used', async () => {
    const { id, token } = await invite('sso-race@example.test');
    // Both accepts queue behind a lock on the invitation row, then run against each other when it is released.
    const release = await holdLock(db, sql`select 1 from workspace_invitations where id = ${id} for update`);
    const first = acceptInvitationWithSso(db, { token, email: 'sso-race@example.test', name: 'Race' });
    const second = acceptInvitationWithSso(db, { token, email: 'sso-race@example.test', name: 'Race' });
    const [a, b] = [settled(first), settled(second)];
    await untilBlocked(db, '\n      select i.id');
    expect(a.done || b.done).toBe(false);
    await release();
    const results = await Promise.all([first, second]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'used' }]);
    expect(await usersWith('sso-race@example.test')).toHaveLength(1);
    expect(await membershipsOf('sso-race@example.test')).toHaveLength(1);
  });

  it('five parallel accepts, single sign-on and password sign-up mixed, are one user and one membership', async () => {
    const { token } = await invite('sso-mixed@example.test');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        i % 2
          ? acceptInvitation(db, { token, signedIn: null, signUp: { name: 'Pw', passwordHash: 'scrypt$x' } })
          : acceptInvitationWithSso(db, { token, email: 'sso-mixed@example.test', name: 'Sso' }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'used')).toBe(true);
    expect(await usersWith('sso-mixed@example.test')).toHaveLength(1);
    expect(await membershipsOf('sso-mixed@example.test')).toHaveLength(1);
  });

  it('another verified email is refused: no user, no membership, the invitation stays pending', async () => {
    const { id, token } = await invite('sso-invited@example.test');
    const other = await makeUser(db, 'sso-other-member@example.test');
    for (const email of ['sso-someone-else@example.test', other.email])
      expect(await acceptInvitationWithSso(db, { token, email, name: 'Not Invited' })).toEqual({
        ok: false,
        reason: 'email_mismatch',
      });
    expect(await usersWith('sso-someone-else@example.test')).toEqual([]);
    expect(await usersWith('sso-invited@example.test')).toEqual([]);
    expect(await membershipsOf(other.email)).toEqual([]);
    expect(await invitationRow(id)).toMatchObject({ acceptedAt: null, acceptedByUserId: null, revokedAt: null });
    // Still open: the invited address can accept it afterwards.
    expect((await acceptInvitationWithSso(db, { token, email: 'sso-invited@example.test', name: 'Ivy' })).ok).toBe(
      true,
    );
  });

  it('an expired or a revoked invitation is refused, and nothing is written', async () => {
    const expired = await invite('sso-expired@example.test', new Date(Date.now() - 8 * 86_400_000));
    expect(
      await acceptInvitationWithSso(db, { token: expired.token, email: 'sso-expired@example.test', name: 'E' }),
    ).toEqual({ ok: false, reason: 'expired' });
    const revoked = await invite('sso-revoked@example.test');
    await revokeInvitationAudited(db, { workspaceId: workspace.id, actorUserId: admin.id, id: revoked.id });
    expect(
      await acceptInvitationWithSso(db, { token: revoked.token, email: 'sso-revoked@example.test', name: 'R' }),
    ).toEqual({ ok: false, reason: 'revoked' });
    expect(
      await acceptInvitationWithSso(db, { token: `${revoked.id}.${'A'.repeat(43)}`, email: 'x@y.test', name: 'F' }),
    ).toEqual({ ok: false, reason: 'invalid' });
    for (const email of ['sso-expired@example.test', 'sso-revoked@example.test'])
      expect(await usersWith(email)).toEqual([]);
  });
});

describe('the sign-in decision for an OIDC callback carrying an invitation', () => {
  it('joined → signed in to that workspace; another email → back to the invite page with the reason', async () => {
    const { token } = await invite('sso-decide@example.test');
    expect(await signInWithSsoInvitation(db, { token, email: 'nope@example.test', name: 'N' })).toEqual({
      allow: false,
      redirect: `/invite/${encodeURIComponent(token)}?error=sso_email_mismatch`,
    });
    expect(await signInWithSsoInvitation(db, { token, email: 'sso-decide@example.test', name: ' \u0000 ' })).toEqual({
      allow: true,
      workspaceSlug: workspace.slug,
    });
    // A blank profile name: the address's local part, not an empty (or NUL) name.
    expect((await usersWith('sso-decide@example.test'))[0]!.name).toBe('sso-decide');
    // The same callback again (used by this very account): an ordinary sign-in, one membership.
    expect(await signInWithSsoInvitation(db, { token, email: 'sso-decide@example.test', name: 'N' })).toEqual({
      allow: true,
      workspaceSlug: null,
    });
    expect(await membershipsOf('sso-decide@example.test')).toHaveLength(1);
  });

  it('an invitation no longer open sends the invitee to its page (which says why), signed out', async () => {
    const revoked = await invite('sso-closed@example.test');
    await revokeInvitationAudited(db, { workspaceId: workspace.id, actorUserId: admin.id, id: revoked.id });
    expect(
      await signInWithSsoInvitation(db, { token: revoked.token, email: 'sso-closed@example.test', name: 'C' }),
    ).toEqual({ allow: false, redirect: `/invite/${encodeURIComponent(revoked.token)}` });
  });
});

describe('the invitation cookie through the round trip', () => {
  it('opens to its token within ten minutes, and not after', () => {
    const now = new Date();
    const sealed = sealSsoInvitation('inv.token', KEY, now);
    expect(sealed).not.toContain('inv.token');
    expect(openSsoInvitation(sealed, KEY, now)).toBe('inv.token');
    expect(openSsoInvitation(sealed, KEY, new Date(now.getTime() + SSO_INVITATION_TTL_MS + 1))).toBeNull();
  });

  it('an altered value, another key, another purpose, a legacy value or garbage opens to nothing', () => {
    const sealed = sealSsoInvitation('inv.token', KEY);
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = `${body!.slice(0, -2)}${body!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(openSsoInvitation([v, iv, tag, flipped].join('.'), KEY)).toBeNull();
    expect(openSsoInvitation(sealed, Buffer.alloc(32, 9).toString('base64'))).toBeNull();
    const payload = JSON.stringify({ token: 'inv.token', exp: Date.now() + 60_000 });
    expect(openSsoInvitation(encryptSecret(payload, KEY, 'another-purpose'), KEY)).toBeNull();
    expect(openSsoInvitation(`v1.${iv}.${tag}.${body}`, KEY)).toBeNull();
    expect(openSsoInvitation('not a sealed value', KEY)).toBeNull();
  });

  it('set as an httpOnly cookie sent only to the OIDC callback, for ten minutes', async () => {
    jar.clear();
    await rememberSsoInvitation('inv.token');
    expect(jar.get(SSO_INVITATION_COOKIE)!.options).toMatchObject({
      httpOnly: true,
      sameSite: 'lax',
      path: '/api/auth/callback/oidc',
      maxAge: 600,
    });
  });
});

describe('the OIDC sign-in callback', () => {
  const oidcAccount = (sub: string) => ({ provider: 'oidc', type: 'oauth' as const, providerAccountId: sub });
  const profileOf = (email: string, verified = true) => ({
    sub: email,
    email,
    email_verified: verified,
    name: 'Via Sso',
  });
  const signIn = (email: string, verified = true) =>
    getAuthOptions().callbacks!.signIn!({
      user: { id: email, email },
      account: oidcAccount(email),
      profile: profileOf(email, verified) as never,
    });

  it('with the invitation cookie: accepts for the invited email, takes the cookie, and the session opens in that workspace', async () => {
    const { token } = await invite('sso-callback@example.test');
    jar.clear();
    await rememberSsoInvitation(token);
    await expect(signIn('sso-callback@example.test')).resolves.toBe(true);
    expect(jar.has(SSO_INVITATION_COOKIE)).toBe(false); // used once
    expect(jar.get(WORKSPACE_COOKIE)?.value).toBe(workspace.slug);
    expect(await membershipsOf('sso-callback@example.test')).toEqual([{ role: 'manager' }]);
    const jwt = await getAuthOptions().callbacks!.jwt!({
      token: {},
      user: { id: 'sso-callback@example.test' } as never,
      account: oidcAccount('sso-callback@example.test'),
      profile: profileOf('sso-callback@example.test') as never,
    });
    const [user] = await usersWith('sso-callback@example.test');
    expect(jwt).toMatchObject({ userId: user!.id, workspaceId: workspace.id, sessionId: expect.any(String) });
  });

  it('with the cookie but another email: refused to the invite page, the invitation pending', async () => {
    const { id, token } = await invite('sso-callback-2@example.test');
    jar.clear();
    await rememberSsoInvitation(token);
    await expect(signIn('sso-intruder@example.test')).resolves.toBe(
      `/invite/${encodeURIComponent(token)}?error=sso_email_mismatch`,
    );
    expect(await usersWith('sso-intruder@example.test')).toEqual([]);
    expect((await invitationRow(id)).acceptedAt).toBeNull();
    // An unverified email with the cookie is refused too, without a write.
    await rememberSsoInvitation(token);
    await expect(signIn('sso-callback-2@example.test', false)).resolves.toBe(
      `/invite/${encodeURIComponent(token)}?error=sso_unverified`,
    );
    expect(await usersWith('sso-callback-2@example.test')).toEqual([]);
  });

  it('without an invitation a verified stranger is still refused; an existing account still signs in', async () => {
    jar.clear();
    await expect(signIn('sso-stranger@example.test')).resolves.toBe(false);
    expect(await usersWith('sso-stranger@example.test')).toEqual([]);
    const member = await makeUser(db, 'sso-member@example.test');
    await addMembership(db, { workspaceId: workspace.id, userId: member.id, role: 'viewer' });
    await expect(signIn('sso-member@example.test')).resolves.toBe(true);
    // A forged cookie (not sealed by us) is no invitation: the stranger is refused as before.
    const { token } = await invite('sso-stranger@example.test');
    jar.set(SSO_INVITATION_COOKIE, { value: token });
    await expect(signIn('sso-stranger@example.test')).resolves.toBe(false);
    expect(await usersWith('sso-stranger@example.test')).toEqual([]);
  });
});
