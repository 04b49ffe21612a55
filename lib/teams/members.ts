import type { Database } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/approvals';
import { changeMemberRole, getMemberRole, removeMember, type Role } from '@/db/queries/workspaces';

type Params = { workspaceId: string; actorUserId: string; userId: string };

/**
 * Removes a member (or, with userId = actorUserId, leaves the workspace), audited. The last admin is never removed:
 * one statement decides (db/queries/workspaces.ts removeMember), and the memberships_keep_an_admin trigger backs it.
 */
export async function removeMemberAudited(
  db: Database,
  params: Params,
): Promise<{ ok: true } | { ok: false; reason: 'last_admin' | 'not_member' }> {
  return db.transaction(async (tx) => {
    const removed = await removeMember(tx, { workspaceId: params.workspaceId, userId: params.userId });
    if (!removed) {
      const role = await getMemberRole(tx, { workspaceId: params.workspaceId, userId: params.userId });
      return { ok: false as const, reason: role ? ('last_admin' as const) : ('not_member' as const) };
    }
    const left = params.userId === params.actorUserId;
    await insertAuditEntry(tx, {
      workspaceId: params.workspaceId,
      actorUserId: params.actorUserId,
      action: left ? 'member.left' : 'member.removed',
      targetType: 'member',
      targetId: params.userId,
      detail: { role: removed },
    });
    return { ok: true as const };
  });
}

/** A role change (the last admin cannot be demoted: one statement decides), audited. */
export async function changeMemberRoleAudited(db: Database, params: Params & { role: Role }) {
  return db.transaction(async (tx) => {
    const changed = await changeMemberRole(tx, params);
    if (changed)
      await insertAuditEntry(tx, {
        workspaceId: params.workspaceId,
        actorUserId: params.actorUserId,
        action: 'member.role_changed',
        targetType: 'member',
        targetId: params.userId,
        detail: { role: params.role },
      });
    return changed;
  });
}
