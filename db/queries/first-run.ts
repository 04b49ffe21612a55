import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { installation, memberships, setupTokens, users, workspaces } from '../schema';

/** Whether /setup is still open: no installation row and no user (a seeded database has users and no row). */
export async function setupOpen(db: Executor): Promise<boolean> {
  const [row] = await db.execute<{ open: boolean }>(sql`
    select not exists (select 1 from installation) and not exists (select 1 from users) as open`);
  return Boolean(row?.open);
}

/** Keeps a new setup token's hash (each server start and `npm run setup` prints its own; any one of them works). */
export async function storeSetupToken(db: Executor, params: { tokenHash: string }) {
  await db.insert(setupTokens).values({ tokenHash: params.tokenHash }).onConflictDoNothing();
}

export async function setupTokenExists(db: Executor, params: { tokenHash: string }): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: setupTokens.tokenHash })
    .from(setupTokens)
    .where(eq(setupTokens.tokenHash, params.tokenHash));
  return Boolean(row);
}

/**
 * The setup's writes, inside the caller's transaction. The installation row comes first: its primary key is
 * what makes setup happen once, since a second transaction's insert waits on the first and then fails with a
 * unique violation (the caller maps it to "already set up").
 */
export async function insertInstallation(
  tx: Executor,
  params: {
    admin: { email: string; name: string; passwordHash: string | null };
    workspace: { name: string; slug: string; timeZone: string };
  },
) {
  // Users but no installation row: a database seeded after the migration, never set up through here. Checked
  // before the insert, so in a race of two setups (neither sees the other's user) the key alone decides.
  const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
  if (existing) return null;
  await tx.insert(installation).values({ id: 1 });
  const [user] = await tx
    .insert(users)
    .values({ ...params.admin, email: params.admin.email.toLowerCase() })
    .returning({ id: users.id, email: users.email, name: users.name });
  const [workspace] = await tx
    .insert(workspaces)
    .values(params.workspace)
    .returning({ id: workspaces.id, slug: workspaces.slug });
  await tx.insert(memberships).values({ workspaceId: workspace!.id, userId: user!.id, role: 'admin' });
  await tx.update(installation).set({ adminUserId: user!.id }).where(eq(installation.id, 1));
  // No token is of use any more: /setup is closed for good.
  await tx.delete(setupTokens).where(sql`true`);
  return { user: user!, workspace: workspace! };
}
