import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { posts, workspaces } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { Role } from './roles';
import type { WorkspaceContext } from './session';

// The wrapper's capability check, as Next calls the actions; only the cookie's session lookup is replaced.
let context: WorkspaceContext | null = null;
vi.mock('./session', () => ({ getWorkspace: async () => context }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { createPostAction } = await import('@/app/(dashboard)/compose/actions');
const { renameWorkspaceAction } = await import('@/app/(dashboard)/settings/actions');

let workspaceId = '';
let accountId = '';
let user = { id: '', email: '', name: '' };
beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  workspaceId = workspace.id;
  const row = await makeUser(db);
  user = { id: row.id, email: row.email, name: row.name };
  await addMembership(db, { workspaceId, userId: row.id, role: 'viewer' });
  accountId = (await makeAccount(db, workspaceId)).id;
});

const as = (role: Role) => {
  context = { user, workspace: { id: workspaceId, slug: 'w', name: 'w' }, role, memberships: [] };
};
const postCount = async () =>
  (await db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, workspaceId)))[0]!.n;
const workspaceName = async () =>
  (await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.name;

function composeForm() {
  const form = new FormData();
  for (const [k, v] of [
    ['idempotencyKey', randomUUID()],
    ['text', `hello ${randomUUID()}`],
    ['accountIds', accountId],
    ['when', 'now'],
    ['timeZone', 'UTC'],
  ])
    form.set(k!, v!);
  return form;
}
function renameForm(name: string) {
  const form = new FormData();
  form.set('name', name);
  return form;
}

describe('workspaceAction({ can }): the capability table decides, on the server', () => {
  it('a viewer cannot compose: 403 naming the least role, nothing written', async () => {
    as('viewer');
    expect(await createPostAction(undefined, composeForm())).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining('needs manager'),
    });
    expect(await postCount()).toBe(0);
  });

  // Past the check, the wrapper's next gate refuses a NUL character with a 422: that answer proves the
  // capability was granted (a successful write needs a request scope, which a unit test does not have).
  it('a manager passes the compose check (the bad text is the 422, not a 403)', async () => {
    as('manager');
    const form = composeForm();
    form.set('text', 'hello\u0000');
    const result = await createPostAction(undefined, form);
    expect(result).toMatchObject({ ok: false, status: 422 });
    expect(result.errors?.text).toBeDefined();
    expect(await postCount()).toBe(0);
  });

  it('a manager cannot rename the workspace (manageWorkspace needs admin); an admin passes the check', async () => {
    const before = await workspaceName();
    as('manager');
    expect(await renameWorkspaceAction(undefined, renameForm('Renamed by a manager'))).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining('needs admin'),
    });
    expect(await workspaceName()).toBe(before);
    as('admin');
    const result = await renameWorkspaceAction(undefined, renameForm('x'));
    expect(result).toMatchObject({ ok: false, status: 422 });
    expect(result.errors?.name?.[0]).toBe('At least 2 characters');
  });
});
