import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { memberships, users } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/db/testing/factories';
import { createTestDatabase } from '@/db/testing/test-database';
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
const { acceptInvitationAction } = await import('./actions');

let token = '';
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
