import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { makeScopedApiKey } from '@/testing/api-fixture';
import { hashApiKey } from '@/lib/auth/api-key-token';
import { startTestSandbox } from '@/testing/sandbox';

// Found in the second security review (docs/security.md#changed-in-the-second-security-review): the sandbox control
// endpoints took any active API key, with no scope check and no rate count.
const sandbox = await startTestSandbox();

async function workspaceWithAccount() {
  const account = await sandbox.connectAccount('x');
  const keyWith = (...scopes: Parameters<typeof makeScopedApiKey>[2]) =>
    makeScopedApiKey(sandbox.db, account.workspaceId, scopes);
  return { account, keyWith };
}

const call = (token: string, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown) =>
  fetch(`${sandbox.url}/api/sandbox${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('21.4 sandbox control with any key: reads need posts:read, changes accounts:write, the limit counts them', () => {
  it('21.4 a posts:read key reads the timeline and faults but cannot change faults or revoke tokens', async () => {
    const { account, keyWith } = await workspaceWithAccount();
    const reader = await keyWith('posts:read');
    expect((await call(reader, 'GET', '/timeline')).status).toBe(200);
    expect((await call(reader, 'GET', '/faults')).status).toBe(200);
    const change = await call(reader, 'PUT', '/faults', { accountId: account.productAccountId, latencyMs: 5 });
    expect(change.status).toBe(403);
    expect(await change.json()).toMatchObject({ missingScope: 'accounts:write' });
    const revoke = await call(reader, 'POST', '/revoke', { accountId: account.productAccountId });
    expect(revoke.status).toBe(403);
    expect((await sandbox.store.getFaults(account.sandboxAccount.id)).latencyMs).toBe(0);
  });

  it('21.4 a key without posts:read cannot read; an accounts:write key changes faults', async () => {
    const { account, keyWith } = await workspaceWithAccount();
    const writer = await keyWith('accounts:write');
    const read = await call(writer, 'GET', '/timeline');
    expect(read.status).toBe(403);
    expect(await read.json()).toMatchObject({ missingScope: 'posts:read' });
    const change = await call(writer, 'PUT', '/faults', { accountId: account.productAccountId, latencyMs: 5 });
    expect(change.status).toBe(200);
    expect((await sandbox.store.getFaults(account.sandboxAccount.id)).latencyMs).toBe(5);
  });

  it('21.4 each control call counts against the key’s per-minute limit; past it: 429 with Retry-After', async () => {
    const { keyWith } = await workspaceWithAccount();
    const reader = await keyWith('posts:read');
    const count = async () =>
      (
        await sandbox.db
          .select({ n: apiKeys.rateWindowCount })
          .from(apiKeys)
          .where(eq(apiKeys.hash, hashApiKey(reader)))
      )[0]!.n;
    expect((await call(reader, 'GET', '/timeline')).status).toBe(200);
    expect((await call(reader, 'GET', '/faults')).status).toBe(200);
    expect(await count()).toBe(2);
    // The window already holds the limit (600 a minute by default): the next call is one too many.
    await sandbox.db
      .update(apiKeys)
      .set({ rateWindowCount: sql`600` })
      .where(eq(apiKeys.hash, hashApiKey(reader)));
    const over = await call(reader, 'GET', '/timeline');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
