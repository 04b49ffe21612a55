'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { cancelScheduledDeliveries, listPosts } from '@/db/queries/posts';
import { workspaceAction } from '@/lib/auth/action';
import { getWorkspace } from '@/lib/auth/session';
import { serializePost } from '@/lib/posts/serialize';

type Serialized = ReturnType<typeof serializePost>;
export type QueueItem = Omit<Serialized, 'deliveries'> & { deliveries: (Serialized['deliveries'][number] & { handle: string; failureReason: string | null })[] };

/** The queue's data (React Query polls it while something can still change). */
export async function fetchQueue(): Promise<QueueItem[]> {
  const context = await getWorkspace();
  if (!context) throw new Error('Not signed in');
  const rows = await listPosts(getDb(), { workspaceId: context.workspace.id, limit: 100 });
  return rows.map(({ post, deliveries }) => {
    const serialized = serializePost(post, deliveries);
    return { ...serialized, deliveries: serialized.deliveries.map((d, i) => ({ ...d, handle: deliveries[i]!.accountHandle, failureReason: deliveries[i]!.failureReason })) };
  });
}

/** Cancels what is still scheduled (one conditional statement: never a delivery already claimed). */
export const cancelPostAction = workspaceAction(
  { name: 'cancelPost', can: 'cancel', schema: z.object({ postId: z.uuid() }) },
  async ({ postId }, { workspace, user }) => {
    const canceled = await cancelScheduledDeliveries(getDb(), { workspaceId: workspace.id, postId, actor: `user:${user.id}` });
    revalidatePath('/queue');
    revalidatePath(`/posts/${postId}`);
    return canceled.length > 0
      ? { ok: true, message: `Canceled ${canceled.length} ${canceled.length === 1 ? 'delivery' : 'deliveries'}.` }
      : { ok: false, status: 409, message: 'Nothing to cancel: already publishing, sent or canceled.' };
  },
);
