import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { apiKeys, socialAccounts } from '../schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { listAccounts } from './accounts';
import { createApiKey, getActiveApiKeyByHash, listApiKeys, revokeApiKey } from './api-keys';

const { db } = await createTestDatabase();

async function makeApiKey(workspaceId: string, name: string) {
  const key = generateApiKey();
  const row = await createApiKey(db, { workspaceId, name, prefix: key.prefix, hash: key.hash });
  return { ...row, hash: key.hash };
}

let a: { id: string };
let b: { id: string };
let accountsOfA: string[];
let accountsOfB: string[];
let keyOfA: Awaited<ReturnType<typeof makeApiKey>>;
let keyOfB: Awaited<ReturnType<typeof makeApiKey>>;

beforeAll(async () => {
  [a, b] = await Promise.all([makeWorkspace(db), makeWorkspace(db)]);
  accountsOfA = [(await makeAccount(db, a.id)).id, (await makeAccount(db, a.id)).id].sort();
  accountsOfB = [(await makeAccount(db, b.id)).id].sort();
  keyOfA = await makeApiKey(a.id, 'A key');
  keyOfB = await makeApiKey(b.id, 'B key');
});

describe('I6 — tenancy: queries for one workspace never reach another', () => {
  it('I6 — tenancy: listAccounts returns only the workspace’s own accounts, without credentials', async () => {
    const listedA = await listAccounts(db, { workspaceId: a.id });
    const listedB = await listAccounts(db, { workspaceId: b.id });
    expect(listedA.map((r) => r.id).sort()).toEqual(accountsOfA);
    expect(listedB.map((r) => r.id).sort()).toEqual(accountsOfB);
    for (const row of [...listedA, ...listedB]) expect(row).not.toHaveProperty('credentialsEncrypted');
  });

  it('I6 — tenancy: listAccounts for an unknown workspace returns nothing', async () => {
    await expect(listAccounts(db, { workspaceId: randomUUID(), includeDisconnected: true })).resolves.toEqual([]);
  });

  it('I6 — tenancy: listApiKeys returns only the workspace’s own keys, never hashes', async () => {
    const listedA = await listApiKeys(db, { workspaceId: a.id });
    const listedB = await listApiKeys(db, { workspaceId: b.id });
    expect(listedA.map((k) => k.id)).toEqual([keyOfA.id]);
    expect(listedB.map((k) => k.id)).toEqual([keyOfB.id]);
    for (const key of [...listedA, ...listedB]) expect(key).not.toHaveProperty('hash');
  });

  it('I6 — tenancy: revokeApiKey for workspace A cannot revoke workspace B’s key', async () => {
    await expect(revokeApiKey(db, { workspaceId: a.id, apiKeyId: keyOfB.id })).resolves.toBeNull();
    const [row] = await db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyOfB.id));
    expect(row!.revokedAt).toBeNull();
    await expect(getActiveApiKeyByHash(db, { hash: keyOfB.hash })).resolves.toMatchObject({
      id: keyOfB.id,
      workspaceId: b.id,
    });
  });

  it('I6 — tenancy: revokeApiKey revokes the workspace’s own key, and only it', async () => {
    const extraOfA = await makeApiKey(a.id, 'A second key');
    await expect(revokeApiKey(db, { workspaceId: a.id, apiKeyId: extraOfA.id })).resolves.toEqual({ id: extraOfA.id });
    await expect(getActiveApiKeyByHash(db, { hash: extraOfA.hash })).resolves.toBeNull();
    // Revoking again is a no-op, and B's key and A's other key stay active.
    await expect(revokeApiKey(db, { workspaceId: a.id, apiKeyId: extraOfA.id })).resolves.toBeNull();
    await expect(getActiveApiKeyByHash(db, { hash: keyOfA.hash })).resolves.toMatchObject({ workspaceId: a.id });
    await expect(getActiveApiKeyByHash(db, { hash: keyOfB.hash })).resolves.toMatchObject({ workspaceId: b.id });
  });

  it('I6 — tenancy: a key resolves to its own workspace only', async () => {
    await expect(getActiveApiKeyByHash(db, { hash: keyOfA.hash })).resolves.toMatchObject({
      id: keyOfA.id,
      workspaceId: a.id,
    });
    await expect(getActiveApiKeyByHash(db, { hash: generateApiKey().hash })).resolves.toBeNull();
  });

  it('I6 — tenancy: B’s rows are unchanged after all of A’s operations', async () => {
    const accounts = await db
      .select({ id: socialAccounts.id })
      .from(socialAccounts)
      .where(eq(socialAccounts.workspaceId, b.id));
    expect(accounts.map((r) => r.id).sort()).toEqual(accountsOfB);
    const keys = await db
      .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.workspaceId, b.id));
    expect(keys).toEqual([{ id: keyOfB.id, revokedAt: null }]);
  });
});
