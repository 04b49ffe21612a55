import 'server-only';
import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { getMembershipsForUser, type WorkspaceMembership } from '@/db/queries/workspaces';
import { getEnv } from '@/lib/env';
import { getAuthOptions } from './options';
import type { Role } from './roles';
import { pickActiveMembership, resolveSessionUser } from './session-user';
import { WORKSPACE_COOKIE } from './workspace-cookie';

export { WORKSPACE_COOKIE };

/**
 * The session and its user, looked up once per request. A token whose session row is gone or ended, or whose
 * session version is older than the user's (signed out everywhere) counts as no session at all, everywhere:
 * pages (redirected to /signin), actions and route handlers (401) and the sign-in page.
 */
const getSessionAndUser = cache(async () => {
  await cookies(); // marks the route dynamic before any config is read (nothing here can be prerendered)
  const session = await getServerSession(getAuthOptions());
  if (!session?.user?.id) return null;
  const user = await resolveSessionUser(
    getDb(),
    { userId: session.user.id, sessionVersion: session.sessionVersion, sessionId: session.sessionId },
    { idleHours: getEnv().SESSION_IDLE_HOURS },
  );
  return user ? { session, user } : null;
});

export const getSession = cache(async () => (await getSessionAndUser())?.session ?? null);

export const getUser = cache(async () => (await getSessionAndUser())?.user ?? null);

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
  const active = pickActiveMembership(memberships, {
    cookieSlug: (await cookies()).get(WORKSPACE_COOKIE)?.value,
    tokenWorkspaceId: session.workspaceId,
  });
  if (!active) return null;
  return { user, workspace: { id: active.id, slug: active.slug, name: active.name }, role: active.role, memberships };
});
