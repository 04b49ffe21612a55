import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership } from '@/db/queries/workspaces';
import { auditLog, requestLinks } from '@/db/schema';
import { makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import type { Role } from '@/lib/auth/roles';
import type { WorkspaceContext } from '@/lib/auth/session';

// The Settings actions as Next calls them; only the cookie's session lookup (and the page cache) is replaced.
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

const testDb = await createTestDatabase();
const { db } = testDb;
process.env.DATABASE_URL = testDb.url;
const { createRequestLinkAction, revokeRequestLinkAction } = await import('./request-links-actions');

let workspaceId = '';
let user = { id: '', email: '', name: '' };
beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  const row = await makeUser(db);
  user = { id: row.id, email: row.email, name: row.name };
  await addMembership(db, { workspaceId, userId: row.id, role: 'admin' });
});
const as = (role: Role, id = workspaceId) => {
  context = { user, workspace: { id, slug: 'w', name: 'w' }, role, memberships: [] };
};
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const linksIn = (id: string) => db.select().from(requestLinks).where(eq(requestLinks.workspaceId, id));

describe('Settings → Request link: admins only, checked on the server', () => {
  it('a manager (and a viewer) cannot create or revoke a link: 403, nothing written', async () => {
    for (const role of ['manager', 'viewer'] as const) {
      as(role);
      expect(await createRequestLinkAction(undefined, form({ label: 'Acme' }))).toMatchObject({
        ok: false,
        status: 403,
      });
    }
    expect(await linksIn(workspaceId)).toEqual([]);
  });

  it('an admin creates a link (shown once, stored as a hash), revokes it; both are audited', async () => {
    as('admin');
    expect(await createRequestLinkAction(undefined, form({ label: ' ' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { label: expect.any(Array) },
    });
    const created = await createRequestLinkAction(undefined, form({ label: 'Acme Bakery' }));
    expect(created.ok).toBe(true);
    const path = created.data!.path;
    expect(path).toMatch(/^\/request\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    const [link] = await linksIn(workspaceId);
    const secret = path.split('.')[1]!;
    expect(link!.secretHash).toBe(createHash('sha256').update(secret).digest('hex')); // never the secret itself
    expect(link!.label).toBe('Acme Bakery');

    // Another workspace's admin cannot revoke it.
    const other = (await makeWorkspace(db)).id;
    as('admin', other);
    expect(await revokeRequestLinkAction(undefined, form({ linkId: link!.id }))).toMatchObject({ status: 404 });
    as('manager');
    expect(await revokeRequestLinkAction(undefined, form({ linkId: link!.id }))).toMatchObject({ status: 403 });
    as('admin');
    expect(await revokeRequestLinkAction(undefined, form({ linkId: link!.id }))).toMatchObject({ ok: true });
    expect((await linksIn(workspaceId))[0]!.revokedAt).not.toBeNull();
    const audit = await db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.targetId, link!.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['request_link.created', 'request_link.revoked']);
    expect(audit.every((a) => a.actor === user.id)).toBe(true);
  });
});
