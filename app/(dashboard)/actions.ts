'use server';

import { revalidatePath } from 'next/cache';
import { getWorkspace } from '@/lib/auth/session';
import { setWorkspaceCookie } from '@/lib/auth/workspace-cookie';

/**
 * Switches the active workspace; only to one the user is a member of (checked here against the memberships read
 * from the database, not in the UI). Refused: nothing changes.
 */
export async function switchWorkspace(slug: string): Promise<{ ok: boolean }> {
  const context = await getWorkspace();
  if (!context || typeof slug !== 'string' || !context.memberships.some((m) => m.slug === slug)) return { ok: false };
  await setWorkspaceCookie(slug);
  revalidatePath('/', 'layout');
  return { ok: true };
}
