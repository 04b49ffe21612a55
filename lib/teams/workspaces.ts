import type { Database } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/approvals';
import {
  cancelWorkspaceDeliveries,
  listWorkspacesToPurge,
  markWorkspaceDeleted,
  purgeWorkspace,
  revokeWorkspaceApiKeys,
} from '@/db/queries/workspace-deletion';
import { addMembership, createWorkspace } from '@/db/queries/workspaces';
import { logger } from '@/lib/logging/logger';

/** A workspace for a client, with its creator as its admin; a taken slug is refused by workspaces_slug_uq. */
export async function createWorkspaceFor(
  db: Database,
  params: { actorUserId: string; name: string; slug: string; timeZone: string },
): Promise<{ ok: true; id: string; slug: string } | { ok: false; reason: 'slug_taken' }> {
  return db.transaction(async (tx) => {
    const created = await createWorkspace(tx, { name: params.name, slug: params.slug, timeZone: params.timeZone });
    if (!created) return { ok: false as const, reason: 'slug_taken' as const };
    await addMembership(tx, { workspaceId: created.id, userId: params.actorUserId, role: 'admin' });
    await insertAuditEntry(tx, {
      workspaceId: created.id,
      actorUserId: params.actorUserId,
      action: 'workspace.created',
      targetType: 'workspace',
      targetId: created.id,
      detail: { name: params.name, slug: params.slug, timeZone: params.timeZone },
    });
    return { ok: true as const, id: created.id, slug: created.slug };
  });
}

/**
 * Deletes a workspace whose name the admin typed: in one transaction its scheduled posts are canceled, its API keys
 * revoked and the workspace hidden; the audit row stays until the purge, and the log line after it.
 */
export async function deleteWorkspace(
  db: Database,
  params: { workspaceId: string; actorUserId: string; confirmName: string },
): Promise<{ ok: true; canceled: number } | { ok: false; reason: 'name_mismatch' }> {
  const result = await db.transaction(async (tx) => {
    const deleted = await markWorkspaceDeleted(tx, {
      workspaceId: params.workspaceId,
      confirmName: params.confirmName,
    });
    if (!deleted) return { ok: false as const, reason: 'name_mismatch' as const };
    const canceled = await cancelWorkspaceDeliveries(tx, {
      workspaceId: params.workspaceId,
      actor: `user:${params.actorUserId}`,
    });
    await revokeWorkspaceApiKeys(tx, { workspaceId: params.workspaceId });
    await insertAuditEntry(tx, {
      workspaceId: params.workspaceId,
      actorUserId: params.actorUserId,
      action: 'workspace.deleted',
      targetType: 'workspace',
      targetId: params.workspaceId,
      detail: { name: deleted.name, slug: deleted.slug, canceledDeliveries: canceled },
    });
    return { ok: true as const, canceled };
  });
  if (result.ok)
    logger.info(
      { workspaceId: params.workspaceId, userId: params.actorUserId, canceled: result.canceled },
      'workspace deleted',
    );
  return result;
}

/** One purge pass: removes deleted workspaces' data, one transaction per workspace. */
export async function purgeDeletedWorkspaces(db: Database, options: { limit?: number } = {}) {
  const ids = await listWorkspacesToPurge(db, { limit: options.limit ?? 10 });
  let purged = 0;
  for (const workspaceId of ids) {
    if (await db.transaction((tx) => purgeWorkspace(tx, { workspaceId }))) {
      purged += 1;
      logger.info({ workspaceId }, 'deleted workspace purged');
    }
  }
  return { purged };
}
