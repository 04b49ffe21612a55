'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { deleteWorkspace } from '@/lib/teams/workspaces';

/** Deletes the active workspace once its name is typed; its data is purged in the background. */
export const deleteWorkspaceAction = workspaceAction(
  {
    name: 'deleteWorkspace',
    can: 'manageWorkspace',
    schema: z.object({ confirmName: z.string().max(200, 'At most 200 characters') }),
  },
  async ({ confirmName }, { workspace, user }) => {
    if (confirmName !== workspace.name)
      return {
        ok: false,
        status: 422,
        errors: { confirmName: [`Type the workspace's name, ${workspace.name}, to confirm.`] },
        message: 'Please fix the highlighted fields.',
      };
    const deleted = await deleteWorkspace(getDb(), { workspaceId: workspace.id, actorUserId: user.id, confirmName });
    if (!deleted.ok) return { ok: false, status: 409, message: 'The workspace was renamed or deleted meanwhile.' };
    revalidatePath('/', 'layout');
    redirect('/queue');
  },
);
