import 'server-only';
import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { getUserById } from '@/db/queries/users';
import { getMembershipsForUser, type WorkspaceMembership } from '@/db/queries/workspaces';
import { getAuthOptions } from './options';
import { hasRole, type Role } from './roles';

export const WORKSPACE_COOKIE = 'postonce-workspace';

/** The session, looked up once per request. */
export const getSession = cache(async () => {
  await cookies(); // marks the route dynamic before any config is read (nothing here can be prerendered)
  return getServerSession(getAuthOptions());
});

export const getUser = cache(async () => {
  const session = await getSession();
  if (!session?.user?.id) return null;
  return getUserById(getDb(), { userId: session.user.id });
});

export type WorkspaceContext = {
  user: { id: string; email: string; name: string };
  workspace: { id: string; slug: string; name: string };
  role: Role;
  memberships: WorkspaceMembership[];
};

/**
 * The active workspace and the user's role in it, read from the database on every request
 * (a role changed or revoked since sign-in takes effect at once). Null when signed out or no membership.
 */
export const getWorkspace = cache(async (): Promise<WorkspaceContext | null> => {
  const [session, user] = await Promise.all([getSession(), getUser()]);
  if (!session || !user) return null;
  const memberships = await getMembershipsForUser(getDb(), { userId: user.id });
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const active =
    memberships.find((m) => m.slug === chosen) ?? memberships.find((m) => m.id === session.workspaceId) ?? memberships[0];
  if (!active) return null;
  return { user, workspace: { id: active.id, slug: active.slug, name: active.name }, role: active.role, memberships };
});

/** For pages: redirects to sign-in when signed out; returns the context and whether the role suffices. */
export async function requirePageWorkspace(required: Role = 'viewer') {
  const context = await getWorkspace();
  if (!context) redirect('/signin');
  return { ...context, allowed: hasRole(context.role, required) };
}
