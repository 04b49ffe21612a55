import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApiKey, getActiveApiKeyByHash } from '@/db/queries/api-keys';
import { addMembership, getMembershipsForUser } from '@/db/queries/workspaces';
import { auditLog, deliveries, deliveryEvents, posts, socialAccounts, workspaces } from '@/db/schema';
import { makeAccount, makeDelivery, makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { pickActiveMembership } from '@/lib/auth/session-user';
import { createWorkspaceFor, deleteWorkspace, purgeDeletedWorkspaces } from './workspaces';

const { db } = await createTestDatabase({ max: 10 });

async function workspaceWithPosts() {
  const workspace = await makeWorkspace(db);
  const admin = await makeUser(db);
  await addMembership(db, { workspaceId: workspace.id, userId: admin.id, role: 'admin' });
  const account = await makeAccount(db, workspace.id);
  const scheduled = await makePost(db, workspace.id);
  const sent = await makePost(db, workspace.id);
  const due = await makeDelivery(db, { workspaceId: workspace.id, postId: scheduled.id, accountId: account.id });
  const done = await makeDelivery(db, { workspaceId: workspace.id, postId: sent.id, accountId: account.id });
  await db.execute(sql`update deliveries set status = 'publishing' where id = ${done.id}`);
  await db.execute(sql`update deliveries set status = 'sent', settled_at = now() where id = ${done.id}`);
  const key = generateApiKey();
  await createApiKey(db, { workspaceId: workspace.id, name: 'k', prefix: key.prefix, hash: key.hash });
  return { workspace, admin, due, done, keyHash: key.hash };
}

const statusOf = async (id: string) =>
  (await db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.id, id)))[0]?.status;

describe('workspaces', () => {
  it('an admin creates a workspace and becomes its admin; a taken slug is refused, also when two race for it', async () => {
    const user = await makeUser(db);
    const created = await createWorkspaceFor(db, {
      actorUserId: user.id,
      name: 'Acme',
      slug: 'acme',
      timeZone: 'Europe/Berlin',
    });
    expect(created).toMatchObject({ ok: true, slug: 'acme' });
    expect(await getMembershipsForUser(db, { userId: user.id })).toEqual([
      { id: created.ok ? created.id : '', slug: 'acme', name: 'Acme', role: 'admin' },
    ]);
    expect(
      await createWorkspaceFor(db, { actorUserId: user.id, name: 'Acme 2', slug: 'acme', timeZone: 'UTC' }),
    ).toEqual({
      ok: false,
      reason: 'slug_taken',
    });
    const race = await Promise.all(
      [1, 2, 3].map((n) =>
        createWorkspaceFor(db, { actorUserId: user.id, name: `R${n}`, slug: 'race', timeZone: 'UTC' }),
      ),
    );
    expect(race.filter((r) => r.ok)).toHaveLength(1);
    expect(await db.select().from(workspaces).where(eq(workspaces.slug, 'race'))).toHaveLength(1);
  });

  it('deleting needs the name; it cancels scheduled posts, revokes API keys, hides the workspace and is audited', async () => {
    const { workspace, admin, due, done, keyHash } = await workspaceWithPosts();
    expect(
      await deleteWorkspace(db, { workspaceId: workspace.id, actorUserId: admin.id, confirmName: 'wrong' }),
    ).toEqual({
      ok: false,
      reason: 'name_mismatch',
    });
    expect(await statusOf(due.id)).toBe('scheduled');
    expect(
      await deleteWorkspace(db, { workspaceId: workspace.id, actorUserId: admin.id, confirmName: workspace.name }),
    ).toEqual({ ok: true, canceled: 1 });
    expect(await statusOf(due.id)).toBe('canceled');
    expect(await statusOf(done.id)).toBe('sent');
    const [event] = await db.select().from(deliveryEvents).where(eq(deliveryEvents.deliveryId, due.id));
    expect(event).toMatchObject({ fromStatus: 'scheduled', toStatus: 'canceled', reason: 'workspace deleted' });
    expect(await getActiveApiKeyByHash(db, { hash: keyHash })).toBeNull();
    expect(await getMembershipsForUser(db, { userId: admin.id })).toEqual([]);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'workspace.deleted'));
    expect(audit).toMatchObject({
      workspaceId: workspace.id,
      actorUserId: admin.id,
      detail: { canceledDeliveries: 1 },
    });
  });

  it('the purge job removes a deleted workspace’s data, and nothing of another workspace (I6 — tenancy)', async () => {
    const doomed = await workspaceWithPosts();
    const kept = await workspaceWithPosts();
    await deleteWorkspace(db, {
      workspaceId: doomed.workspace.id,
      actorUserId: doomed.admin.id,
      confirmName: doomed.workspace.name,
    });
    expect(await purgeDeletedWorkspaces(db)).toEqual({ purged: expect.any(Number) });
    for (const table of [posts, deliveries, socialAccounts] as const) {
      expect(await db.select().from(table).where(eq(table.workspaceId, doomed.workspace.id))).toEqual([]);
      expect((await db.select().from(table).where(eq(table.workspaceId, kept.workspace.id))).length).toBeGreaterThan(0);
    }
    expect(await db.select().from(workspaces).where(eq(workspaces.id, doomed.workspace.id))).toEqual([]);
    expect(await statusOf(kept.due.id)).toBe('scheduled');
    expect(await purgeDeletedWorkspaces(db)).toEqual({ purged: 0 });
  });

  it('switching: a workspace the user is not a member of is never chosen, whatever the cookie or token says', async () => {
    const user = await makeUser(db);
    const [mine, theirs] = [await makeWorkspace(db, 'mine-ws'), await makeWorkspace(db, 'theirs-ws')];
    await addMembership(db, { workspaceId: mine.id, userId: user.id, role: 'viewer' });
    const memberships = await getMembershipsForUser(db, { userId: user.id });
    expect(pickActiveMembership(memberships, { cookieSlug: 'theirs-ws', tokenWorkspaceId: theirs.id })?.id).toBe(
      mine.id,
    );
    expect(pickActiveMembership([], { cookieSlug: 'theirs-ws', tokenWorkspaceId: theirs.id })).toBeNull();
  });
});
