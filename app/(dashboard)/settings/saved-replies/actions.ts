'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deleteSavedReply, upsertSavedReply } from '@/db/queries/inbox/saved-replies';
import { workspaceAction } from '@/lib/auth/action';
import { savedReplySchema } from '@/lib/inbox/schemas';

const PATH = '/settings/saved-replies';

/** Adds a saved reply, or changes the text of the one with the same name (one per name: a constraint). */
export const saveSavedReplyAction = workspaceAction(
  { name: 'saveSavedReply', can: 'answer', schema: savedReplySchema },
  async ({ name, text }, { workspace, user }) => {
    await upsertSavedReply(getDb(), { workspaceId: workspace.id, name, text, userId: user.id });
    revalidatePath(PATH);
    return { ok: true, message: `Saved “${name}”.` };
  },
);

export const deleteSavedReplyAction = workspaceAction(
  { name: 'deleteSavedReply', can: 'answer', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace }) => {
    const deleted = await deleteSavedReply(getDb(), { workspaceId: workspace.id, id });
    revalidatePath(PATH);
    return deleted ? { ok: true, message: 'Deleted.' } : { ok: false, status: 404, message: 'Already gone.' };
  },
);
