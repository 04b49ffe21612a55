import type { Executor } from '@/db/client';
import { listPosts } from '@/db/queries/posts';
import { listRequestsForPosts } from '@/db/queries/requests';
import { serializePost } from '@/lib/posts/serialize';

export type DraftItem = ReturnType<typeof serializePost> & {
  handles: string[];
  /** The client who asked for it through a request link, if one did. */
  requestedBy: string | null;
};

/** The workspace's drafts (posts saved without scheduling), newest first. */
export async function readDrafts(db: Executor, params: { workspaceId: string }): Promise<DraftItem[]> {
  const rows = await listPosts(db, { workspaceId: params.workspaceId, status: 'draft', limit: 100 });
  const requests = await listRequestsForPosts(db, {
    workspaceId: params.workspaceId,
    postIds: rows.map((r) => r.post.id),
  });
  return rows.map(({ post, deliveries, parts, partMedia }) => ({
    ...serializePost(post, deliveries, parts, partMedia),
    // A thread has a delivery per part on each account: each account once.
    handles: [...new Set(deliveries.map((d) => d.accountHandle))],
    requestedBy: requests.get(post.id)?.requesterName ?? null,
  }));
}
