import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sandboxOAuthTokens } from '@/sandbox/db/schema';
import { notifications, socialAccounts } from '@/db/schema';
import { startOAuthSandbox } from '@/testing/oauth';
import { providerClientForAccount, providerDefinition, resolvedAccountFor } from '@/lib/providers';
import { openCredentials } from '@/lib/providers/credentials';
import { sendOnce } from '@/lib/net/send';
import type { ProviderTransport } from '@/lib/providers/transport';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { refreshExpiringTokens, type RefreshOptions } from './refresh-expiring';

// Access tokens live two minutes here: inside the job's ten-minute margin from the start.
const sandbox = await startOAuthSandbox({ tokenTtlSeconds: 120 });
const { db } = sandbox;

const options = (workerId: string, transport?: ProviderTransport): RefreshOptions => ({
  workerId,
  marginMs: 10 * 60_000,
  leaseMs: 30_000,
  batchSize: 20,
  retryMs: 60_000,
  encryptionKey: TEST_ENCRYPTION_KEY,
  origin: sandbox.url,
  transport,
});

/** A new expiring account; the earlier tests' accounts are parked (expiring in a day), so each pass sees only this one. */
async function connected() {
  await db
    .update(socialAccounts)
    .set({ tokenExpiresAt: sql`now() + interval '1 day'` })
    .where(sql`true`);
  const admin = await sandbox.admin();
  const [account] = await sandbox.connect({ provider: 'x', ...admin });
  const [row] = await db.select().from(socialAccounts).where(eq(socialAccounts.id, account!.id));
  const sandboxUser = await sandbox.store.getAccount('x', row!.platformUserId);
  return { ...admin, row: row!, sandboxUserId: sandboxUser!.id };
}

const load = async (id: string) => (await db.select().from(socialAccounts).where(eq(socialAccounts.id, id)))[0]!;
const refreshTokensIssued = async (sandboxUserId: string) =>
  db
    .select({ usedAt: sandboxOAuthTokens.usedAt, revokedAt: sandboxOAuthTokens.revokedAt })
    .from(sandboxOAuthTokens)
    .where(and(eq(sandboxOAuthTokens.accountId, sandboxUserId), eq(sandboxOAuthTokens.kind, 'refresh')));

describe('the token job: one refresher per account', () => {
  it('two refreshers racing on one expiring account: one refreshes, the other skips; one refresh reaches the sandbox', async () => {
    const { row, sandboxUserId } = await connected();
    const sent: { worker: string; at: number }[] = [];
    const finished: Record<string, number> = {};
    let aDone!: () => void;
    let bDone!: () => void;
    const passEnded = { A: new Promise<void>((r) => (aDone = r)), B: new Promise<void>((r) => (bDone = r)) };
    // Each refresher's call waits until the other pass has ended: the winner holds its lease while the other runs.
    const gated =
      (worker: 'A' | 'B'): ProviderTransport =>
      async (request) => {
        await Promise.race([passEnded[worker === 'A' ? 'B' : 'A'], new Promise((r) => setTimeout(r, 5_000))]);
        sent.push({ worker, at: Date.now() });
        return sendOnce(request);
      };
    const run = (worker: 'A' | 'B', done: () => void) =>
      refreshExpiringTokens(db, options(worker, gated(worker))).finally(() => {
        finished[worker] = Date.now();
        done();
      });
    const [a, b] = await Promise.all([run('A', aDone), run('B', bDone)]);

    const summaries = [a, b].sort((x, y) => y.claimed - x.claimed);
    expect(summaries[0]).toMatchObject({ claimed: 1, refreshed: 1 });
    expect(summaries[1]).toMatchObject({ claimed: 0, refreshed: 0 }); // it ran its claim and found the lease held
    expect(sent).toHaveLength(1);
    const loser = sent[0]!.worker === 'A' ? 'B' : 'A';
    expect(finished[loser]).toBeLessThanOrEqual(sent[0]!.at); // the skip happened while the winner held the lease

    // The sandbox's side: one rotation (two refresh tokens issued, the first spent once), family intact.
    const issued = await refreshTokensIssued(sandboxUserId);
    expect(issued).toHaveLength(2);
    expect(issued.filter((t) => t.usedAt)).toHaveLength(1);
    expect(issued.filter((t) => t.revokedAt)).toHaveLength(0);

    const after = await load(row.id);
    expect(after).toMatchObject({ tokenStatus: 'ok', tokenRefreshLeaseUntil: null });
    expect(after.credentialsEncrypted).not.toBe(row.credentialsEncrypted);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(row.tokenExpiresAt!.getTime());
    const before = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    const now = openCredentials(after.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    expect(now.refreshToken).not.toBe(before.refreshToken); // rotated
    const client = providerClientForAccount(after, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    expect(await client.whoAmI()).toMatchObject({ ok: true });
  });

  it('why the claim matters: the same refresh token spent twice revokes the whole grant on the sandbox (as on X)', async () => {
    const { row } = await connected();
    const account = resolvedAccountFor(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    const refresh = providerDefinition('x').refresh!;
    const first = await refresh(account);
    expect(first.ok).toBe(true);
    expect(await refresh(account)).toMatchObject({ ok: false, rejected: true });
    // The replay revoked the family: even the first refresh's new tokens are dead now.
    const { credentials } = first as { ok: true; credentials: { accessToken: string } };
    expect(await sandbox.store.authenticate('x', credentials.accessToken)).toBeNull();
  });

  it('a refresh the platform refuses (tokens revoked) marks the account rejected and notifies once', async () => {
    const { row, sandboxUserId } = await connected();
    await sandbox.store.oauth.revokeAccount(sandboxUserId);
    expect(await refreshExpiringTokens(db, options('w1'))).toMatchObject({ claimed: 1, rejected: 1 });
    expect(await refreshExpiringTokens(db, options('w2'))).toMatchObject({ claimed: 0 });
    const after = await load(row.id);
    expect(after.tokenStatus).toBe('rejected');
    expect(after.tokenProblem).toContain('refused to renew');
    const notes = await db.select().from(notifications).where(eq(notifications.accountId, row.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'reconnect' });
  });

  it('a token that cannot be renewed waits until it expires, then the account is marked expired (once)', async () => {
    const { row } = await connected();
    // As if the grant had no refresh token (X without offline.access): reseal without it.
    const { sealCredentials } = await import('@/lib/providers/credentials');
    const credentials = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, row.id);
    const sealed = sealCredentials({ accessToken: credentials.accessToken }, TEST_ENCRYPTION_KEY, row.id);
    await db
      .update(socialAccounts)
      .set({ credentialsEncrypted: sealed.credentialsEncrypted })
      .where(eq(socialAccounts.id, row.id));
    expect(await refreshExpiringTokens(db, options('w1'))).toMatchObject({ claimed: 1, waiting: 1 });
    expect((await load(row.id)).tokenStatus).toBe('ok');
    // Not claimed again before it expires…
    expect(await refreshExpiringTokens(db, options('w2'))).toMatchObject({ claimed: 0 });
    // …then it expires.
    await db
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() - interval '1 second'`, tokenRefreshLeaseUntil: null })
      .where(eq(socialAccounts.id, row.id));
    expect(await refreshExpiringTokens(db, options('w3'))).toMatchObject({ claimed: 1, expired: 1 });
    expect(await refreshExpiringTokens(db, options('w4'))).toMatchObject({ claimed: 0 });
    expect((await load(row.id)).tokenStatus).toBe('expired');
    expect(await db.select().from(notifications).where(eq(notifications.accountId, row.id))).toHaveLength(1);
  });
});

describe('the token job renews a Bluesky session (refreshSession) once, and the account keeps publishing', () => {
  it('an expiring session is renewed by one pass; the next pass has nothing to do; a post then goes out', async () => {
    await db
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() + interval '1 day'` })
      .where(sql`true`);
    const { connectSandboxAccount } = await import('@/lib/sandbox/connect');
    const admin = await sandbox.admin();
    const account = await connectSandboxAccount(db, {
      workspaceId: admin.workspaceId,
      provider: 'bluesky',
      encryptionKey: TEST_ENCRYPTION_KEY,
    });
    // The session is two hours old in spirit: it expires within the job's margin.
    await db
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() + interval '1 minute'` })
      .where(eq(socialAccounts.id, account.id));
    const before = openCredentials((await load(account.id)).credentialsEncrypted, TEST_ENCRYPTION_KEY, account.id);

    expect(await refreshExpiringTokens(db, options('bsky-1'))).toMatchObject({ claimed: 1, refreshed: 1 });
    const row = await load(account.id);
    const after = openCredentials(row.credentialsEncrypted, TEST_ENCRYPTION_KEY, account.id);
    // A new session: the refresh token rotated (an access JWT issued in the same second may read the same).
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.appPassword).toBe(before.appPassword);
    expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 60 * 60_000);
    expect(row.tokenStatus).toBe('ok');
    expect(await refreshExpiringTokens(db, options('bsky-2'))).toMatchObject({ claimed: 0, refreshed: 0 });

    const client = providerClientForAccount(row, { encryptionKey: TEST_ENCRYPTION_KEY, origin: sandbox.url });
    const published = await client.publish({
      text: 'after the renewal',
      kind: 'post',
      idempotencyKey: crypto.randomUUID(),
      createdAt: new Date(),
    });
    expect(published).toMatchObject({ outcome: 'sent' });
  });
});
