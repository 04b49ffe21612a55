'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { getWorkspace } from '@/lib/auth/session';
import { getPostDetail } from '@/lib/posts/post-detail';

/** Query function for the post page's live timeline; scoped to the caller's workspace. */
export async function fetchPostDetail(postId: string) {
  const context = await getWorkspace();
  if (!context || !z.uuid().safeParse(postId).success) return null;
  return getPostDetail(getDb(), { workspaceId: context.workspace.id, postId });
}
