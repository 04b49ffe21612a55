import { z } from 'zod';
import type { Executor } from '@/db/client';
import { getPostDetail, type PostDetail } from '@/lib/posts/post-detail';

/** One post and its deliveries' timelines, scoped to the workspace; null for a malformed id or another workspace's post. */
export async function readPostDetail(
  db: Executor,
  params: { workspaceId: string; postId: string },
): Promise<PostDetail | null> {
  if (!z.uuid().safeParse(params.postId).success) return null;
  return getPostDetail(db, params);
}
