import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { memberships, users, workspaces, type NewWorkspace } from '../schema';

export type Role = 'admin' | 'manager' | 'viewer';
export type WorkspaceMembership = { id: string; slug: string; name: string; role: Role };

export async function upsertWorkspace(db: Executor, params: Pick<NewWorkspace, 'slug' | 'name'>) {
  const [row] = await db
    .insert(workspaces)
    .values(params)
    .onConflictDoUpdate({ target: workspaces.slug, set: { name: params.name } })
    .returning();
  return row!;
}

export async function getWorkspaceBySlug(db: Executor, params: { slug: string }) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.slug, params.slug));
  return row ?? null;
}

export async function addMembership(db: Executor, params: { workspaceId: string; userId: string; role: Role }) {
  await db
    .insert(memberships)
    .values(params)
    .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role: params.role } });
}

/** Every workspace the user belongs to, with the role there; the source of truth for authorization. */
export async function getMembershipsForUser(db: Executor, params: { userId: string }): Promise<WorkspaceMembership[]> {
  return (
    db
      .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name, role: memberships.role })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      // A deleted workspace is gone for every member at once, before the purge job removes its rows.
      .where(and(eq(memberships.userId, params.userId), isNull(workspaces.deletedAt)))
      .orderBy(asc(workspaces.name))
  );
}

export async function renameWorkspace(db: Executor, params: { workspaceId: string; name: string }) {
  const [row] = await db
    .update(workspaces)
    .set({ name: params.name })
    .where(eq(workspaces.id, params.workspaceId))
    .returning({ id: workspaces.id, name: workspaces.name });
  return row ?? null;
}

export async function listMembers(db: Executor, params: { workspaceId: string }) {
  return db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, params.workspaceId))
    .orderBy(asc(users.email));
}

/**
 * Changes a member's role in one statement that refuses to leave the workspace without an admin
 * (two admins demoting each other at once cannot both succeed: the row lock serialises them).
 */
export async function changeMemberRole(db: Executor, params: { workspaceId: string; userId: string; role: Role }) {
  const result = await db.execute<{ user_id: string }>(sql`
    with admins as (
      select user_id from memberships where workspace_id = ${params.workspaceId} and role = 'admin' for update
    )
    update memberships set role = ${params.role}::role
    where workspace_id = ${params.workspaceId} and user_id = ${params.userId}
      and (${params.role} = 'admin' or exists (select 1 from admins where user_id <> ${params.userId}))
    returning user_id`);
  return [...result].length === 1;
}

/**
 * Removes a member in one statement that refuses to remove the last admin (the admins' rows are locked, so two
 * admins removing each other, or leaving, at once cannot both succeed; memberships_keep_an_admin is the backstop).
 */
export async function removeMember(db: Executor, params: { workspaceId: string; userId: string }) {
  const result = await db.execute<{ role: Role }>(sql`
    with admins as (
      select user_id from memberships where workspace_id = ${params.workspaceId} and role = 'admin' for update
    )
    delete from memberships
    where workspace_id = ${params.workspaceId} and user_id = ${params.userId}
      and (role <> 'admin' or exists (select 1 from admins where user_id <> ${params.userId}))
    returning role`);
  return [...result][0]?.role ?? null;
}

/** Whether the user is a member of the workspace, and as what (null: not a member). */
export async function getMemberRole(db: Executor, params: { workspaceId: string; userId: string }) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, params.workspaceId), eq(memberships.userId, params.userId)));
  return row?.role ?? null;
}

/** A new workspace; null when the slug is taken (workspaces_slug_uq decides, not a prior check). */
export async function createWorkspace(db: Executor, params: { slug: string; name: string; timeZone: string }) {
  const [row] = await db
    .insert(workspaces)
    .values(params)
    .onConflictDoNothing({ target: workspaces.slug })
    .returning({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name });
  return row ?? null;
}

/** Adds a member unless already one (a second accept of one invitation is one membership: memberships_pk). */
export async function addMembershipOnce(db: Executor, params: { workspaceId: string; userId: string; role: Role }) {
  const added = await db.insert(memberships).values(params).onConflictDoNothing().returning({ role: memberships.role });
  return added.length === 1;
}

export async function getWorkspaceSettings(db: Executor, params: { workspaceId: string }) {
  const [row] = await db
    .select({ latenessLimitSeconds: workspaces.latenessLimitSeconds, timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, params.workspaceId));
  return row ?? null;
}

export async function setLatenessLimit(db: Executor, params: { workspaceId: string; seconds: number }) {
  await db
    .update(workspaces)
    .set({ latenessLimitSeconds: params.seconds })
    .where(eq(workspaces.id, params.workspaceId));
}

/** `timeZone` must be an IANA name (checked by the caller with lib/time/zoned.ts). */
export async function setWorkspaceTimeZone(db: Executor, params: { workspaceId: string; timeZone: string }) {
  await db.update(workspaces).set({ timeZone: params.timeZone }).where(eq(workspaces.id, params.workspaceId));
}
