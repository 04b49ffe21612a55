import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { memberships, users } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { openSsoInvitation, SSO_INVITATION_COOKIE } from '@/lib/auth/sso-invitation';
import { getEnv } from '@/lib/env';
import { invitationToken } from '@/lib/teams/invitation-token';
import { inviteMember } from '@/lib/teams/invitations';

// The accept action as Next calls it: nobody signed in; only the cookie jar is replaced.
const jar = new Map<string, string>();
vi.mock('@/lib/auth/session', () => ({ getUser: async () => null, WORKSPACE_COOKIE: 'semel-workspace' }));
vi.mock('next/headers', () => ({
  cookies: async () => ({ set: (name: string, value: string) => jar.set(name, value) }),
}));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
// Single sign-on set up (read once, at the first getEnv()): the "Continue with" action needs it.
Object.assign(process.env, {
  OIDC_ISSUER: 'http://localhost:8080',
  OIDC_CLIENT_ID: 'semel-test',
  OIDC_CLIENT_SECRET: 'semel-test-secret',
});
const { acceptInvitationAction, startSsoInvitationAction } = await import('./actions');

let token = '';
let ssoToken = '';
let workspace = { id: '', slug: '' };
beforeAll(async () => {
  workspace = await makeWorkspace(db);
  const admin = await makeUser(db);
  await addMembership(db, { workspaceId: workspace.id, userId: admin.id, role: 'admin' });
  const invited = await inviteMember(db, {
    workspaceId: workspace.id,
    actorUserId: admin.id,
    email: 'joiner@example.test',
    role: 'viewer',
    key: getEnv().APP_ENCRYPTION_KEY,
  });
  if (!invited.ok) throw new Error(invited.reason);
  token = invitationToken(invited.invitationId, 1, getEnv().APP_ENCRYPTION_KEY);
  const forSso = await inviteMember(db, {
    workspaceId: workspace.id,
    actorUserId: admin.id,
    email: 'sso-joiner@example.test',
    role: 'viewer',
    key: getEnv().APP_ENCRYPTION_KEY,
  });
  if (!forSso.ok) throw new Error(forSso.reason);
  ssoToken = invitationToken(forSso.invitationId, 1, getEnv().APP_ENCRYPTION_KEY);
});
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const joiner = () => db.select().from(users).where(eq(users.email, 'joiner@example.test'));

describe('accepting an invitation by signing up', () => {
  it('a short password or a NUL in the name is a field error, and nothing is written', async () => {
    expect(await acceptInvitationAction(undefined, form({ token, name: 'Jo', password: 'short' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { password: ['Use at least 12 characters.'] },
    });
    expect(
      await acceptInvitationAction(undefined, form({ token, name: 'J\u0000o', password: 'long enough password' })),
    ).toMatchObject({ ok: false, status: 422, errors: { name: expect.any(Array) } });
    expect(await joiner()).toEqual([]);
  });

  it('a good form creates the user (password hashed) and the membership; a replay is refused', async () => {
    const fields = { token, name: 'Jo Joiner', password: 'long enough password' };
    expect(await acceptInvitationAction(undefined, form(fields))).toMatchObject({ ok: true });
    const [user] = await joiner();
    expect(user!.passwordHash).toMatch(/^scrypt\$/);
    expect(await db.select().from(memberships).where(eq(memberships.userId, user!.id))).toHaveLength(1);
    // Their only workspace: no cookie needed (setting one would re-render the page under the form).
    expect(jar.size).toBe(0);
    expect(await acceptInvitationAction(undefined, form(fields))).toMatchObject({
      ok: false,
      status: 409,
      message: 'This invitation has already been used.',
    });
  });
});

describe('continuing with single sign-on from an invitation', () => {
  it('an open link is kept, sealed, in the cookie for the OIDC callback; nothing is accepted yet', async () => {
    jar.clear();
    expect(await startSsoInvitationAction(undefined, form({ token: ssoToken }))).toMatchObject({ ok: true });
    const sealed = jar.get(SSO_INVITATION_COOKIE)!;
    expect(sealed).not.toContain(ssoToken);
    expect(openSsoInvitation(sealed, getEnv().APP_ENCRYPTION_KEY)).toBe(ssoToken);
    expect(await db.select().from(users).where(eq(users.email, 'sso-joiner@example.test'))).toEqual([]);
  });

  it('a malformed, altered or used link is refused and sets no cookie', async () => {
    jar.clear();
    for (const [bad, status] of [
      ['nonsense', 404],
      [`${ssoToken.split('.')[0]}.${'A'.repeat(43)}`, 404],
      ['x'.repeat(500), 404],
      [token, 409], // accepted above
    ] as const)
      expect(await startSsoInvitationAction(undefined, form({ token: bad }))).toMatchObject({ ok: false, status });
    expect(jar.size).toBe(0);
  });
});
