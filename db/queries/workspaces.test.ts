import { describe, expect, it } from 'vitest';
import { addMembership, changeMemberRole, listMembers } from './workspaces';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';

const { db } = await createTestDatabase();

describe('member roles', () => {
  it('changes a role, but never leaves a workspace without an admin — even when two admins demote each other at once', async () => {
    const workspace = await makeWorkspace(db);
    const [a, b] = [await makeUser(db), await makeUser(db)];
    await addMembership(db, { workspaceId: workspace.id, userId: a.id, role: 'admin' });
    await addMembership(db, { workspaceId: workspace.id, userId: b.id, role: 'admin' });
    const results = await Promise.all([
      changeMemberRole(db, { workspaceId: workspace.id, userId: a.id, role: 'manager' }),
      changeMemberRole(db, { workspaceId: workspace.id, userId: b.id, role: 'manager' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const members = await listMembers(db, { workspaceId: workspace.id });
    expect(members.filter((m) => m.role === 'admin')).toHaveLength(1);
  });

  it("I6 — tenancy: a role change names the workspace, so another workspace's member is untouched", async () => {
    const [mine, theirs] = [await makeWorkspace(db), await makeWorkspace(db)];
    const user = await makeUser(db);
    await addMembership(db, { workspaceId: theirs.id, userId: user.id, role: 'viewer' });
    expect(await changeMemberRole(db, { workspaceId: mine.id, userId: user.id, role: 'admin' })).toBe(false);
    expect((await listMembers(db, { workspaceId: theirs.id }))[0]!.role).toBe('viewer');
  });
});
