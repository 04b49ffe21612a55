import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '@/db/queries/api-keys';
import { getNextWakeAt } from '@/db/queries/publishing';
import { markTokenProblem } from '@/db/queries/token-health';
import { deliveries, notifications, socialAccounts, workspaces, type ApiKeyScope } from '@/db/schema';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { startOAuthSandbox } from '@/testing/oauth';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { readAccounts } from '@/lib/reads/accounts';
import { readQueue } from '@/lib/reads/queue';

const sandbox = await startOAuthSandbox();
const { db } = sandbox;

async function connectedX(provider: 'x' | 'threads' = 'x') {
  const admin = await sandbox.admin();
  const [account] = await sandbox.connect({ provider, ...admin });
  const [row] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, account!.id));
  const sandboxUser = await sandbox.store.getAccount(provider, row!.platformUserId);
  return { ...admin, accountId: account!.id, sandboxUserId: sandboxUser!.id };
}

/** The sandbox's control endpoint, as a workspace API key calls it. */
async function revokeOnSandbox(workspaceId: string, accountId: string) {
  const key = generateApiKey();
  const scopes: ApiKeyScope[] = ['accounts:write']; // revoking changes the sandbox: docs/sandbox.md#the-sandbox-network
  await createApiKey(db, { workspaceId, name: 'test', prefix: key.prefix, hash: key.hash, scopes });
  const response = await fetch(`${sandbox.url}/api/sandbox/revoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accountId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { revoked: number };
}

const accountNotifications = (accountId: string) =>
  db.select().from(notifications).where(eq(notifications.accountId, accountId));
const copies = async (sandboxUserId: string) =>
  (await sandbox.store.countPosts([sandboxUserId])).get(sandboxUserId) ?? 0;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url));

describe('token health: a refused token holds deliveries, tells the admin once, and a reconnect publishes them once', () => {
  it('a LinkedIn page holds no token: revoking it revokes its administrator’s, and the page’s posts are held', async () => {
    const admin = await sandbox.admin();
    const connected = await sandbox.connect({ provider: 'linkedin', ...admin });
    const rows = await db.select().from(socialAccounts).where(eq(socialAccounts.workspaceId, admin.workspaceId));
    const page = rows.find((r) => r.platformUserId.startsWith('urn:li:organization:'))!;
    expect(connected.map((c) => c.id)).toContain(page.id);
    expect((await revokeOnSandbox(admin.workspaceId, page.id)).revoked).toBeGreaterThan(0);
    await schedulePosts(db, { workspaceId: admin.workspaceId, accountId: page.id, count: 1, label: 'held-page' });
    expect(await publish()).toMatchObject({ claimed: 1, not_sent: 1, failed: 0 });
    const [after] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, page.id));
    expect(after).toMatchObject({ tokenStatus: 'rejected' });
  });

  it('a network that refuses a token its own way (Threads: Graph code 190 with HTTP 400) holds the same way, never fails', async () => {
    const { workspaceId, accountId, sandboxUserId } = await connectedX('threads');
    expect((await revokeOnSandbox(workspaceId, accountId)).revoked).toBeGreaterThan(0);
    const ids = await schedulePosts(db, { workspaceId, accountId, count: 1, label: 'held-threads' });
    expect(await publish()).toMatchObject({ claimed: 1, not_sent: 1, failed: 0 });
    for (const d of (await deliveryStates(db, ids)).values()) expect(d.status).toBe('scheduled');
    const [account] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, accountId));
    expect(account).toMatchObject({ tokenStatus: 'rejected' });
    expect(await publish()).toMatchObject({ claimed: 0 });
    expect(await accountNotifications(accountId)).toHaveLength(1);
    expect(await copies(sandboxUserId)).toBe(0);
  });

  it('revoked on the platform → 401 → not sent, held (not claimed, not failed), one notification; reconnect → sent once', async () => {
    const { workspaceId, userId, accountId, sandboxUserId } = await connectedX();
    expect((await revokeOnSandbox(workspaceId, accountId)).revoked).toBe(2); // access + refresh token

    const ids = await schedulePosts(db, { workspaceId, accountId, count: 2, label: 'held' });
    const first = await publish();
    expect(first).toMatchObject({ claimed: 2, not_sent: 2, sent: 0, failed: 0 });
    for (const d of (await deliveryStates(db, ids)).values()) expect(d.status).toBe('scheduled');
    const [account] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, accountId));
    expect(account).toMatchObject({ tokenStatus: 'rejected' });
    expect(account!.tokenProblem).toContain('401');

    // Held: later passes do not claim them, nothing is failed or lost, and the admin was told once.
    for (let i = 0; i < 3; i++) expect(await publish()).toMatchObject({ claimed: 0 });
    for (const d of (await deliveryStates(db, ids)).values()) expect(d.status).toBe('scheduled');
    const notes = await accountNotifications(accountId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toContain('needs a reconnect');
    expect(notes[0]!.message).toContain('2 scheduled posts are held');
    expect(await copies(sandboxUserId)).toBe(0);

    // What the pages show: the account asks for a reconnect with 2 held posts; the queue says "held".
    const listed = (await readAccounts(db, { workspaceId })).find((a) => a.id === accountId)!;
    expect(listed).toMatchObject({ needsReconnect: true, tokenStatus: 'rejected', scheduled: 2 });
    const queued = (await readQueue(db, { workspaceId })).flatMap((p) => p.deliveries);
    expect(queued.map((d) => d.held)).toEqual([true, true]);

    // Reconnect through the OAuth flow as the same sandbox user: the account is healthy and they go out, once each.
    const [again] = await sandbox.connect({ provider: 'x', workspaceId, userId, account: sandboxUserId });
    expect(again!.id).toBe(accountId);
    expect(await publish()).toMatchObject({ claimed: 2, sent: 2 });
    for (const d of (await deliveryStates(db, ids)).values()) expect(d.status).toBe('sent');
    expect(await publish()).toMatchObject({ claimed: 0 });
    expect(await copies(sandboxUserId)).toBe(2);
    expect(await sandbox.store.listAllPosts(sandboxUserId)).toHaveLength(2); // no deleted extra copy either
    expect(await accountNotifications(accountId)).toHaveLength(1);
  });

  it('a delivery held past the lateness limit becomes missed, never published late (the existing rule)', async () => {
    const { workspaceId, userId, accountId, sandboxUserId } = await connectedX();
    await db.update(workspaces).set({ latenessLimitSeconds: 1 }).where(eq(workspaces.id, workspaceId));
    await revokeOnSandbox(workspaceId, accountId);
    const [id] = await schedulePosts(db, { workspaceId, accountId, count: 1, label: 'late' });
    expect(await publish()).toMatchObject({ not_sent: 1 });
    await db
      .update(deliveries)
      .set({ dueAt: sql`now() - interval '5 seconds'` })
      .where(eq(deliveries.id, id!));
    await db.execute(sql`update posts set scheduled_at = now() - interval '5 seconds'
      where id = (select post_id from deliveries where id = ${id!})`);
    await sandbox.connect({ provider: 'x', workspaceId, userId, account: sandboxUserId });
    expect(await publish()).toMatchObject({ missed: 1, claimed: 0 });
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('missed');
    expect(await copies(sandboxUserId)).toBe(0);
  });

  it('an expired token holds deliveries without any call, and the scheduler does not wake for them', async () => {
    const { workspaceId, accountId, sandboxUserId } = await connectedX();
    await db
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(socialAccounts.id, accountId));
    await db.update(deliveries).set({ status: 'canceled' }).where(eq(deliveries.status, 'scheduled')); // earlier tests' leftovers
    const [id] = await schedulePosts(db, { workspaceId, accountId, count: 1, label: 'expired' });
    expect(await publish()).toMatchObject({ claimed: 0 });
    expect((await deliveryStates(db, [id!])).get(id!)!.status).toBe('scheduled');
    expect(await copies(sandboxUserId)).toBe(0);
    const wake = await getNextWakeAt(db);
    expect(wake === null || wake.getTime() > Date.now()).toBe(true);
  });

  it('ten workers seeing the same refusal at once: the account is marked once and one notification is written', async () => {
    const { accountId } = await connectedX();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        markTokenProblem(db, { accountId, status: 'rejected', problem: 'test', networkLabel: 'X' }),
      ),
    );
    expect(results.filter((r) => r.marked)).toHaveLength(1);
    expect(results.filter((r) => r.notified)).toHaveLength(1);
    // The same incident marked again (even as another status) does not notify again.
    await markTokenProblem(db, { accountId, status: 'expired', problem: 'test', networkLabel: 'X' });
    expect(await accountNotifications(accountId)).toHaveLength(1);
  });
});
