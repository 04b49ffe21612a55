import { z } from 'zod';
import type { Executor } from '@/db/client';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { serializePost, type SerializedPost } from './serialize';

const postIdSchema = z.uuid();

/** A malformed id names no post: it reads as not found instead of reaching a uuid column (a 500). */
export const isPostId = (id: string) => postIdSchema.safeParse(id).success;

export type GetPostResult = { kind: 'ok'; post: SerializedPost } | { kind: 'not_found' };

/** One post in the caller's workspace; another workspace's post is indistinguishable from a missing one (I6). */
export async function getPost(db: Executor, params: { workspaceId: string; postId: string }): Promise<GetPostResult> {
  const found = isPostId(params.postId) ? await getPostWithDeliveries(db, params) : null;
  return found
    ? { kind: 'ok', post: serializePost(found.post, found.deliveries, found.parts, found.partMedia) }
    : { kind: 'not_found' };
}
