import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership, getMembershipsForUser } from '@/db/queries/workspaces';
import { outboxEmails, workspaceInvitations, workspaces } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { Role } from '@/lib/auth/roles';
import type { WorkspaceContext } from '@/lib/auth/session';

// The actions as Next calls them; only the cookie's session lookup, the cookie jar and the page cache are replaced.
let context: WorkspaceContext | null = null;
const jar = new Map<string, string>();
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context, WORKSPACE_COOKIE: 'semel-workspace' }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/headers', () => ({
  cookies: async () => ({ set: (name: string, value: string) => jar.set(name, value) }),
}));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
delete process.env.SMTP_URL;
const { inviteMemberAction } = await import('./members-actions');
const { deleteWorkspaceAction } = await import('./workspace-actions');
const { createWorkspaceAction } = await import('../workspaces/new/actions');
const { switchWorkspace } = await import('../actions');

let workspace = { id: '', slug: '', name: '' };
let user = { id: '', email: '', name: '' };
beforeAll(async () => {
  workspace = await makeWorkspace(db);
  const row = await makeUser(db);
  user = { id: row.id, email: row.email, name: row.name };
  await addMembership(db, { workspaceId: workspace.id, userId: row.id, role: 'admin' });
});
const as = async (role: Role) => {
  context = {
    user,
    workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    role,
    memberships: await getMembershipsForUser(db, { userId: user.id }),
  };
};
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe('Settings → Members and workspaces: checked on the server, field errors for bad input', () => {
  it('a manager cannot invite: 403, nothing written', async () => {
    await as('manager');
    expect(await inviteMemberAction(undefined, form({ email: 'x@example.test', role: 'viewer' }))).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await db.select().from(workspaceInvitations)).toEqual([]);
  });

  it('an admin invites: a bad address is a field error; a good one lands once in the Outbox', async () => {
    await as('admin');
    expect(await inviteMemberAction(undefined, form({ email: 'not-an-email', role: 'viewer' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { email: expect.any(Array) },
    });
    expect(await inviteMemberAction(undefined, form({ email: 'Manager@Example.test', role: 'manager' }))).toMatchObject(
      { ok: true },
    );
    const again = await inviteMemberAction(undefined, form({ email: 'manager@example.test', role: 'manager' }));
    expect(again).toMatchObject({
      ok: false,
      status: 409,
      errors: { email: [expect.stringContaining('Already invited')] },
    });
    const emails = await db.select().from(outboxEmails).where(eq(outboxEmails.workspaceId, workspace.id));
    expect(emails.map((e) => e.toAddress)).toEqual(['manager@example.test']);
    expect(emails[0]!.body).toMatch(/\/invite\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/);
  });

  it('a taken or malformed slug is a field error, not a 500; a free one creates the workspace and selects it', async () => {
    await as('admin');
    const taken = await createWorkspaceAction(undefined, form({ name: 'Acme', slug: workspace.slug, timeZone: 'UTC' }));
    expect(taken).toMatchObject({ ok: false, status: 409, errors: { slug: ['This slug is taken: choose another.'] } });
    const malformed = await createWorkspaceAction(
      undefined,
      form({ name: 'Acme', slug: 'Acme Inc!', timeZone: 'UTC' }),
    );
    expect(malformed).toMatchObject({ ok: false, status: 422, errors: { slug: expect.any(Array) } });
    await expect(
      createWorkspaceAction(undefined, form({ name: 'Acme', slug: 'acme', timeZone: 'UTC' })),
    ).rejects.toMatchObject({
      to: '/settings',
    });
    expect(jar.get('semel-workspace')).toBe('acme');
    expect((await getMembershipsForUser(db, { userId: user.id })).find((m) => m.slug === 'acme')?.role).toBe('admin');
  });

  it('switching to a workspace the user is not a member of is refused; to their own it is kept in the cookie', async () => {
    const foreign = await makeWorkspace(db);
    await as('admin');
    jar.clear();
    expect(await switchWorkspace(foreign.slug)).toEqual({ ok: false });
    expect(jar.size).toBe(0);
    expect(await switchWorkspace('acme')).toEqual({ ok: true });
    expect(jar.get('semel-workspace')).toBe('acme');
  });

  it('deleting needs the typed name: a wrong one is a field error and deletes nothing', async () => {
    await as('admin');
    expect(await deleteWorkspaceAction(undefined, form({ confirmName: 'nope' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { confirmName: expect.any(Array) },
    });
    const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect(row!.deletedAt).toBeNull();
    await as('manager');
    expect(await deleteWorkspaceAction(undefined, form({ confirmName: workspace.name }))).toMatchObject({
      status: 403,
    });
  });
});
