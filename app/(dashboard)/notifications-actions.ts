'use server';

import { revalidatePath } from 'next/cache';
import { getDb } from '@/db/client';
import { markNotificationsRead } from '@/db/queries/notifications';
import { getWorkspace } from '@/lib/auth/session';

/** Marks the active workspace's notifications read for the caller only (opening the bell): a viewer never hides an admin's alert. */
export async function markAllNotificationsRead(): Promise<void> {
  const context = await getWorkspace();
  if (!context) return;
  await markNotificationsRead(getDb(), { workspaceId: context.workspace.id, userId: context.user.id });
  revalidatePath('/', 'layout');
}
