'use server';

import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { getWorkspace, WORKSPACE_COOKIE } from '@/lib/auth/session';

/** Switches the active workspace; only to one the user is a member of (checked here, not in the UI). */
export async function switchWorkspace(slug: string): Promise<void> {
  const context = await getWorkspace();
  if (!context || !context.memberships.some((m) => m.slug === slug)) return;
  (await cookies()).set(WORKSPACE_COOKIE, slug, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: process.env.NODE_ENV === 'production' && process.env.NEXTAUTH_URL?.startsWith('https'),
  });
  revalidatePath('/', 'layout');
}
