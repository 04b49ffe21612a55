import type { Executor } from '@/db/client';
import { getInboxItemDetail, type InboxItemDetail } from '@/db/queries/inbox/item';
import { listSavedReplies, type SavedReplyRow } from '@/db/queries/inbox/saved-replies';
import { listMembers, type WorkspaceMembership } from '@/db/queries/workspaces';
import { can } from '@/lib/auth/can';
import { answerTarget } from '@/lib/inbox/answerable';
import { listInboxPage, type ListInboxResult } from '@/lib/inbox/list';
import { toJson, type Json } from './json';

// The inbox page's data (React Query polls both: new items appear without a reload, presence within seconds).

/** A page over every workspace of the member; `assignedTo=me` is theirs. */
export function readInboxList(
  db: Executor,
  params: { memberships: WorkspaceMembership[]; userId: string; query: Record<string, string | undefined> },
): Promise<ListInboxResult> {
  const query = {
    ...params.query,
    assignedTo: params.query.assignedTo === 'me' ? params.userId : params.query.assignedTo,
  };
  return listInboxPage(db, { workspaceIds: params.memberships.map((m) => m.id), query });
}

export type InboxItemRead = Json<
  InboxItemDetail & {
    canAnswer: boolean;
    answerable: boolean;
    notAnswerable: string | null;
    members: { userId: string; name: string }[];
    savedReplies: SavedReplyRow[];
  }
>;

/** One item of the member's inbox (null: not in any of their workspaces), with what they may do with it. */
export async function readInboxItem(
  db: Executor,
  params: { memberships: WorkspaceMembership[]; userId: string; itemId: string },
): Promise<InboxItemRead | null> {
  const detail = await getInboxItemDetail(db, {
    itemId: params.itemId,
    workspaceIds: params.memberships.map((m) => m.id),
    viewerId: params.userId,
  });
  if (!detail) return null;
  const role = params.memberships.find((m) => m.id === detail.workspaceId)!.role;
  const target = answerTarget(detail);
  const [members, savedReplies] = await Promise.all([
    listMembers(db, { workspaceId: detail.workspaceId }),
    listSavedReplies(db, { workspaceIds: [detail.workspaceId] }),
  ]);
  return toJson({
    ...detail,
    canAnswer: can(role, 'answer'),
    answerable: target.ok,
    notAnswerable: target.ok ? null : target.reason,
    members: members.filter((m) => m.role !== 'viewer').map((m) => ({ userId: m.userId, name: m.name })),
    savedReplies,
  });
}
