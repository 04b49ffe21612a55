import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { makeAccount, makeDelivery, makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { countUnreadNotifications, listNotifications, markNotificationsRead } from './notifications';

const { db } = await createTestDatabase({ max: 20 });

async function workspaceWithAlert() {
  const workspace = await makeWorkspace(db);
  const [admin, viewer] = [await makeUser(db), await makeUser(db)];
  const account = await makeAccount(db, workspace.id);
  const post = await makePost(db, workspace.id);
  const delivery = await makeDelivery(db, { workspaceId: workspace.id, postId: post.id, accountId: account.id });
  await db.execute(
    sql`insert into notifications (workspace_id, delivery_id, kind, message) values (${workspace.id}, ${delivery.id}, 'needs_review', 'Needs review')`,
  );
  return { workspace, admin, viewer };
}

describe('notification read state is per user', () => {
  it('a viewer opening the bell marks it read for the viewer only; the admin still sees the alert unread', async () => {
    const { workspace, admin, viewer } = await workspaceWithAlert();
    expect(await countUnreadNotifications(db, { workspaceId: workspace.id, userId: viewer.id })).toBe(1);
    expect(await countUnreadNotifications(db, { workspaceId: workspace.id, userId: admin.id })).toBe(1);

    await markNotificationsRead(db, { workspaceId: workspace.id, userId: viewer.id });

    expect(await countUnreadNotifications(db, { workspaceId: workspace.id, userId: viewer.id })).toBe(0);
    expect(await countUnreadNotifications(db, { workspaceId: workspace.id, userId: admin.id })).toBe(1);
    expect((await listNotifications(db, { workspaceId: workspace.id, userId: admin.id }))[0]).toMatchObject({
      kind: 'needs_review',
      read: false,
    });
    expect((await listNotifications(db, { workspaceId: workspace.id, userId: viewer.id }))[0]).toMatchObject({
      kind: 'needs_review',
      read: true,
    });
  });

  it("marking read in one workspace leaves another workspace's notifications alone", async () => {
    const first = await workspaceWithAlert();
    const second = await workspaceWithAlert();
    await markNotificationsRead(db, { workspaceId: first.workspace.id, userId: second.admin.id });
    expect(await countUnreadNotifications(db, { workspaceId: second.workspace.id, userId: second.admin.id })).toBe(1);
  });

  it('repeated and parallel marking is harmless (one read row per user and notification)', async () => {
    const { workspace, viewer } = await workspaceWithAlert();
    await Promise.all(
      Array.from({ length: 10 }, () => markNotificationsRead(db, { workspaceId: workspace.id, userId: viewer.id })),
    );
    const [row] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from notification_reads where user_id = ${viewer.id}`,
    );
    expect(row!.n).toBe(1);
  });
});
