import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addMembership, listMembers } from '@/db/queries/workspaces';
import { auditLog } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { holdLock, untilBlocked } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { changeMemberRoleAudited, removeMemberAudited } from './members';

const { db } = await createTestDatabase({ max: 10 });

async function workspaceWith(roles: ('admin' | 'manager' | 'viewer')[]) {
  const workspace = await makeWorkspace(db);
  const people = [];
  for (const role of roles) {
    const user = await makeUser(db);
    await addMembership(db, { workspaceId: workspace.id, userId: user.id, role });
    people.push(user);
  }
  return { workspaceId: workspace.id, people };
}
const admins = async (workspaceId: string) =>
  (await listMembers(db, { workspaceId })).filter((m) => m.role === 'admin').map((m) => m.userId);

describe('the last admin stays', () => {
  it('the last admin can neither leave, nor remove themself, nor be demoted; a manager can leave', async () => {
    const { workspaceId, people } = await workspaceWith(['admin', 'manager']);
    const [admin, manager] = [people[0]!, people[1]!];
    const self = { workspaceId, actorUserId: admin.id, userId: admin.id };
    expect(await removeMemberAudited(db, self)).toEqual({ ok: false, reason: 'last_admin' });
    expect(await changeMemberRoleAudited(db, { ...self, role: 'viewer' })).toBe(false);
    expect(await admins(workspaceId)).toEqual([admin.id]);
    expect(await removeMemberAudited(db, { workspaceId, actorUserId: manager.id, userId: manager.id })).toEqual({
      ok: true,
    });
    const [left] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.action, 'member.left')));
    expect(left).toMatchObject({ actorUserId: manager.id, targetId: manager.id, detail: { role: 'manager' } });
  });

  it('the constraint holds even for a statement that does not check: memberships_one_admin_ck', async () => {
    const { workspaceId } = await workspaceWith(['admin', 'viewer']);
    await expect(
      db.execute(sql`update memberships set role = 'manager' where workspace_id = ${workspaceId}`),
    ).rejects.toMatchObject({ cause: { constraint_name: 'memberships_one_admin_ck' } });
    await expect(db.execute(sql`delete from memberships where workspace_id = ${workspaceId}`)).rejects.toMatchObject({
      cause: { constraint_name: 'memberships_one_admin_ck' },
    });
    expect(await listMembers(db, { workspaceId })).toHaveLength(2);
  });

  it('two admins removing each other at once: one is removed, the other is refused, one admin remains', async () => {
    const { workspaceId, people } = await workspaceWith(['admin', 'admin']);
    const [a, b] = [people[0]!, people[1]!];
    const results = await Promise.all([
      removeMemberAudited(db, { workspaceId, actorUserId: a.id, userId: b.id }),
      removeMemberAudited(db, { workspaceId, actorUserId: b.id, userId: a.id }),
    ]);
    expect(results).toEqual(expect.arrayContaining([{ ok: true }, { ok: false, reason: 'last_admin' }]));
    expect(await admins(workspaceId)).toHaveLength(1);
  });

  it('two admins demoting each other in unchecked statements at once: the trigger serialises them, one admin remains', async () => {
    const { workspaceId, people } = await workspaceWith(['admin', 'admin']);
    const [a, b] = [people[0]!, people[1]!];
    // Hold the workspace row, so both demotions have updated their own row and wait in the trigger together.
    const release = await holdLock(db, sql`select 1 from workspaces where id = ${workspaceId} for no key update`);
    const demote = (userId: string) =>
      db.execute(
        sql`update memberships set role = 'manager' where workspace_id = ${workspaceId} and user_id = ${userId}`,
      );
    const both = Promise.allSettled([demote(a.id), demote(b.id)]);
    await untilBlocked(db, 'update memberships');
    await release();
    const outcomes = await both;
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ cause: { constraint_name: 'memberships_one_admin_ck' } });
    expect(await admins(workspaceId)).toHaveLength(1);
  });

  it('role changes are audited; I6 — tenancy: removing names the workspace, another workspace’s member stays', async () => {
    const { workspaceId, people } = await workspaceWith(['admin', 'viewer']);
    const [admin, viewer] = [people[0]!, people[1]!];
    expect(
      await changeMemberRoleAudited(db, { workspaceId, actorUserId: admin.id, userId: viewer.id, role: 'manager' }),
    ).toBe(true);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.action, 'member.role_changed')));
    expect(entry).toMatchObject({ targetId: viewer.id, detail: { role: 'manager' } });
    const other = await workspaceWith(['admin']);
    expect(
      await removeMemberAudited(db, { workspaceId: other.workspaceId, actorUserId: admin.id, userId: viewer.id }),
    ).toEqual({ ok: false, reason: 'not_member' });
    expect((await listMembers(db, { workspaceId })).map((m) => m.userId)).toContain(viewer.id);
  });
});
