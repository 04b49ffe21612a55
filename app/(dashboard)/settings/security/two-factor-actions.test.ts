import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { totpFactors, workspaces } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { Role } from '@/lib/auth/roles';
import type { WorkspaceContext } from '@/lib/auth/session';

// The Security actions as Next calls them; only the cookie's session lookup (and the page cache) is replaced.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({
  getWorkspace: async () => context,
  getUser: async () => context?.user ?? null,
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { disableTotpAction, setRequireTwoFactorAction } = await import('./two-factor-actions');

let workspaceId = '';
let user = { id: '', email: '', name: '' };
beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  const row = await makeUser(db);
  user = { id: row.id, email: row.email, name: row.name };
  await addMembership(db, { workspaceId, userId: row.id, role: 'admin' });
});
const as = (role: Role) => {
  context = { user, workspace: { id: workspaceId, slug: 'w', name: 'w' }, role, memberships: [] };
};
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const required = async () =>
  (await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.requireTwoFactor;

describe('Settings → Security: requiring two-factor sign-in', () => {
  it('a manager or viewer cannot change the rule: 403, nothing written', async () => {
    for (const role of ['manager', 'viewer'] as const) {
      as(role);
      expect(await setRequireTwoFactorAction(undefined, form({ requireTwoFactor: 'on' }))).toMatchObject({
        ok: false,
        status: 403,
      });
    }
    expect(await required()).toBe(false);
  });

  it('an admin without a second factor cannot require one (409, nothing changes): the rule would lock them out', async () => {
    as('admin');
    expect(await setRequireTwoFactorAction(undefined, form({ requireTwoFactor: 'on' }))).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await required()).toBe(false);
  });

  it('an admin with a second factor turns it on and off', async () => {
    as('admin');
    await db.insert(totpFactors).values({ userId: user.id, secretSealed: 'sealed', enabledAt: new Date() });
    expect(await setRequireTwoFactorAction(undefined, form({ requireTwoFactor: 'on' }))).toMatchObject({ ok: true });
    expect(await required()).toBe(true);
    expect(await setRequireTwoFactorAction(undefined, form({}))).toMatchObject({ ok: true });
    expect(await required()).toBe(false);
    await db.delete(totpFactors).where(eq(totpFactors.userId, user.id));
  });

  it('signed out: 401', async () => {
    context = null;
    expect(await setRequireTwoFactorAction(undefined, form({ requireTwoFactor: 'on' }))).toMatchObject({ status: 401 });
    expect(await disableTotpAction(undefined, form({ proof: 'x' }))).toMatchObject({ status: 401 });
  });

  it('turning TOTP off needs a current code or the password: anything else is a field error, nothing deleted', async () => {
    as('admin');
    await db.insert(totpFactors).values({ userId: user.id, secretSealed: 'sealed', enabledAt: new Date() });
    expect(await disableTotpAction(undefined, form({ proof: '' }))).toMatchObject({ status: 422 });
    expect(await disableTotpAction(undefined, form({ proof: 'not-the-password' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { proof: ['That is neither a current code nor your password.'] },
    });
    expect(await db.select().from(totpFactors).where(eq(totpFactors.userId, user.id))).toHaveLength(1);
  });
});
