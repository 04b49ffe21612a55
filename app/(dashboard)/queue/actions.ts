'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { cancelPost } from '@/lib/posts/cancel';

/** Cancels what is still scheduled (one conditional statement: never a delivery already claimed). */
export const cancelPostAction = workspaceAction(
  { name: 'cancelPost', can: 'cancel', schema: z.object({ postId: z.uuid() }) },
  async ({ postId }, { workspace, user }) => {
    const result = await cancelPost(getDb(), { workspaceId: workspace.id, postId, actor: `user:${user.id}` });
    revalidatePath('/queue');
    revalidatePath('/drafts');
    revalidatePath(`/posts/${postId}`);
    const canceled = result.kind === 'ok' ? result.canceledDeliveryIds : [];
    return canceled.length > 0
      ? { ok: true, message: `Canceled ${canceled.length} ${canceled.length === 1 ? 'delivery' : 'deliveries'}.` }
      : { ok: false, status: 409, message: 'Nothing to cancel: already publishing, sent or canceled.' };
  },
);
