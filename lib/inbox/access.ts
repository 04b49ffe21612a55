import type { Executor } from '@/db/client';
import { getInboxItemWorkspace } from '@/db/queries/inbox/work';
import type { WorkspaceMembership } from '@/db/queries/workspaces';
import { can, type Capability } from '@/lib/auth/can';

// The inbox spans every workspace a member belongs to (docs/inbox.md#the-page): an item is reached through the
// member's own memberships, and what they may do with it is their role in the item's workspace, never the active one's.

export type ItemAccess = { ok: true; workspaceId: string } | { ok: false; status: 404 | 403; message: string };

/** The item's workspace when it is one of the member's and their role there holds `capability`. */
export async function memberItemAccess(
  db: Executor,
  params: { itemId: string; memberships: WorkspaceMembership[]; capability: Capability },
): Promise<ItemAccess> {
  const workspaceId = await getInboxItemWorkspace(db, {
    itemId: params.itemId,
    workspaceIds: params.memberships.map((m) => m.id),
  });
  if (!workspaceId) return { ok: false, status: 404, message: 'This item is not in your inbox.' };
  const role = params.memberships.find((m) => m.id === workspaceId)!.role;
  if (!can(role, params.capability))
    return { ok: false, status: 403, message: 'Your role in this item’s workspace cannot do this (needs manager).' };
  return { ok: true, workspaceId };
}

/** The workspaces of the member whose role holds `capability`. */
export const workspacesWhere = (memberships: WorkspaceMembership[], capability: Capability) =>
  memberships.filter((m) => can(m.role, capability)).map((m) => m.id);
