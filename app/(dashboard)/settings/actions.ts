'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { changeMemberRole, renameWorkspace } from '@/db/queries/workspaces';
import { workspaceAction } from '@/lib/auth/action';

export const renameWorkspaceAction = workspaceAction(
  { name: 'renameWorkspace', role: 'admin', schema: z.object({ name: z.string().trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters') }) },
  async ({ name }, { workspace }) => {
    await renameWorkspace(getDb(), { workspaceId: workspace.id, name });
    revalidatePath('/', 'layout');
    return { ok: true, message: 'Workspace renamed.' };
  },
);

export const changeMemberRoleAction = workspaceAction(
  { name: 'changeMemberRole', role: 'admin', schema: z.object({ userId: z.uuid(), role: z.enum(['admin', 'manager', 'viewer']) }) },
  async ({ userId, role }, { workspace }) => {
    const changed = await changeMemberRole(getDb(), { workspaceId: workspace.id, userId, role });
    revalidatePath('/settings');
    return changed ? { ok: true, message: `Role set to ${role}.` } : { ok: false, status: 409, message: 'Not changed: a workspace keeps at least one admin.' };
  },
);
