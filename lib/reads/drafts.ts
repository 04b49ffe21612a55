import type { Executor } from '@/db/client';
import { listPosts } from '@/db/queries/posts';
import { serializePost } from '@/lib/posts/serialize';

export type DraftItem = ReturnType<typeof serializePost> & { handles: string[] };

/** The workspace's drafts (posts saved without scheduling), newest first. */
export async function readDrafts(db: Executor, params: { workspaceId: string }): Promise<DraftItem[]> {
  const rows = await listPosts(db, { workspaceId: params.workspaceId, status: 'draft', limit: 100 });
  return rows.map(({ post, deliveries, parts, partMedia }) => ({
    ...serializePost(post, deliveries, parts, partMedia),
    // A thread has a delivery per part on each account: each account once.
    handles: [...new Set(deliveries.map((d) => d.accountHandle))],
  }));
}
