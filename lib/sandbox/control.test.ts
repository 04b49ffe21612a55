import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { upsertAccount } from '@/db/queries/accounts';
import { revokeApiKey, listApiKeys } from '@/db/queries/api-keys';
import { makeWorkspace } from '@/testing/db/factories';
import { createProviderClient } from '@/lib/providers';
import { sealCredentials } from '@/lib/providers/credentials';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';

// Control endpoints (PUT /api/sandbox/faults, GET /api/sandbox/timeline): API-key auth, tenancy, problem+json.

const sandbox = await startTestSandbox();
const control = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${sandbox.url}/api/sandbox${path}`, {
    ...init,
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });

const a1 = await sandbox.connectAccount('x');
const a2 = await sandbox.connectAccount('mastodon', a1.workspaceId);
const b1 = await sandbox.connectAccount('x');
const keyA = await sandbox.apiKey(a1.workspaceId);
const keyB = await sandbox.apiKey(b1.workspaceId);

describe('sandbox control endpoints', () => {
  it('refuse a caller without a key or with an unknown one (401 problem+json)', async () => {
    for (const key of [undefined, 'sm_live_nope']) {
      const res = await control('/timeline', { key });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('refuse a revoked key', async () => {
    const workspace = await makeWorkspace(sandbox.db);
    const key = await sandbox.apiKey(workspace.id);
    const [row] = await listApiKeys(sandbox.db, { workspaceId: workspace.id });
    await revokeApiKey(sandbox.db, { workspaceId: workspace.id, apiKeyId: row!.id });
    expect((await control('/timeline', { key })).status).toBe(401);
  });

  it('I6: the timeline shows only the key’s workspace, with every copy counted', async () => {
    await a1.client.publish({ text: sandbox.uniqueText('a'), kind: 'post', idempotencyKey: randomUUID() });
    await b1.client.publish({ text: sandbox.uniqueText('b'), kind: 'post', idempotencyKey: randomUUID() });
    const body = await (await control('/timeline', { key: keyA })).json();
    expect(body.accounts.map((a: { accountId: string }) => a.accountId).sort()).toEqual(
      [a1.productAccountId, a2.productAccountId].sort(),
    );
    const x = body.accounts.find((a: { accountId: string }) => a.accountId === a1.productAccountId);
    expect(x).toMatchObject({ provider: 'x', total: 1, posts: [{ kind: 'post' }] });
  });

  it('PUT without accountId sets every account of the workspace, and only those', async () => {
    const res = await control('/faults', {
      key: keyA,
      method: 'PUT',
      body: JSON.stringify({ rateLimited: 1, latencyMs: 5 }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).accounts).toHaveLength(2);
    expect(await sandbox.store.getFaults(a2.sandboxAccount.id)).toMatchObject({
      rateLimited: 1,
      latencyMs: 5,
      timeoutAfterCommit: 0,
    });
    expect(await sandbox.store.getFaults(b1.sandboxAccount.id)).toMatchObject({ rateLimited: 0 });
    const result = await a1.client.publish({ text: 'limited', kind: 'post', idempotencyKey: randomUUID() });
    expect(result.outcome).toBe('not_sent');
    await control('/faults', { key: keyA, method: 'PUT', body: '{}' });
    expect(await sandbox.store.getFaults(a1.sandboxAccount.id)).toMatchObject({ rateLimited: 0, latencyMs: 0 });
  });

  it('PUT for one account changes that account; another workspace’s account is 404', async () => {
    const ok = await control('/faults', {
      key: keyA,
      method: 'PUT',
      body: JSON.stringify({ accountId: a2.productAccountId, errorAfterCommit: 0.5 }),
    });
    expect(ok.status).toBe(200);
    expect(await sandbox.store.getFaults(a2.sandboxAccount.id)).toMatchObject({ errorAfterCommit: 0.5 });
    expect(await sandbox.store.getFaults(a1.sandboxAccount.id)).toMatchObject({ errorAfterCommit: 0 });
    const foreign = await control('/faults', {
      key: keyA,
      method: 'PUT',
      body: JSON.stringify({ accountId: b1.productAccountId, rateLimited: 1 }),
    });
    expect(foreign.status).toBe(404);
    expect(await sandbox.store.getFaults(b1.sandboxAccount.id)).toMatchObject({ rateLimited: 0 });
  });

  it('bad input is a 4xx problem, never a 500', async () => {
    const notJson = await control('/faults', { key: keyA, method: 'PUT', body: 'rate=1' });
    expect(notJson.status).toBe(400);
    const outOfRange = await control('/faults', {
      key: keyA,
      method: 'PUT',
      body: JSON.stringify({ rateLimited: 1.5, latencyMs: -1 }),
    });
    expect(outOfRange.status).toBe(422);
    expect(outOfRange.headers.get('content-type')).toContain('application/problem+json');
    expect(Object.keys((await outOfRange.json()).errors).sort()).toEqual(['latencyMs', 'rateLimited']);
    expect((await control('/timeline?limit=0', { key: keyA })).status).toBe(422);
    expect((await control('/faults', { key: keyA, method: 'POST', body: '{}' })).status).toBe(405);
    expect((await control('/nope', { key: keyA })).status).toBe(404);
  });

  it('GET /faults lists the workspace’s settings, with each account’s platform default profile', async () => {
    const body = await (await control('/faults', { key: keyB })).json();
    expect(body.accounts).toEqual([
      expect.objectContaining({
        accountId: b1.productAccountId,
        provider: 'x',
        faults: expect.objectContaining({ rateLimited: 0, profile: 'x' }),
      }),
    ]);
  });

  it('PUT profile: it must fit the platform (422, nothing changed); omitted, each account gets its platform default', async () => {
    const set = (body: object) => control('/faults', { key: keyA, method: 'PUT', body: JSON.stringify(body) });
    const ok = await set({
      accountId: a2.productAccountId,
      profile: 'mastodon-legacy',
      processingMs: 13_000,
      processingShare: 0.5,
      readLagMs: 60_000,
      listingUnavailable: 0.2,
    });
    expect(ok.status).toBe(200);
    expect(await sandbox.store.getFaults(a2.sandboxAccount.id)).toMatchObject({
      profile: 'mastodon-legacy',
      processingMs: 13_000,
      processingShare: 0.5,
      readLagMs: 60_000,
      listingUnavailable: 0.2,
    });
    for (const [accountId, profile] of [
      [a1.productAccountId, 'mastodon-legacy'],
      [a2.productAccountId, 'x-nodedupe'],
      [undefined, 'x'],
    ] as const) {
      const wrong = await set({ accountId, profile, rateLimited: 1 });
      expect(wrong.status).toBe(422);
      expect(Object.keys((await wrong.json()).errors)).toEqual(['profile']);
    }
    expect(await sandbox.store.getFaults(a1.sandboxAccount.id)).toMatchObject({ profile: 'x', rateLimited: 0 });
    expect(await sandbox.store.getFaults(a2.sandboxAccount.id)).toMatchObject({
      profile: 'mastodon-legacy',
      rateLimited: 0,
    });
    const plain = await set({ profile: 'plain' }); // fits both platforms
    expect((await plain.json()).accounts.map((a: { faults: { profile: string } }) => a.faults.profile)).toEqual([
      'plain',
      'plain',
    ]);
    expect((await set({})).status).toBe(200); // full replacement: back to each platform's default
    expect(await sandbox.store.getFaults(a1.sandboxAccount.id)).toMatchObject({
      profile: 'x',
      processingMs: 0,
      processingShare: 1,
    });
    expect(await sandbox.store.getFaults(a2.sandboxAccount.id)).toMatchObject({
      profile: 'mastodon-modern',
      readLagMs: 0,
    });
  });

  it('PUT new faults out of range → 422 naming each field, nothing written', async () => {
    const res = await control('/faults', {
      key: keyA,
      method: 'PUT',
      body: JSON.stringify({
        profile: 'mastodon-4',
        processingMs: 120_001,
        processingShare: 1.1,
        readLagMs: -1,
        listingUnavailable: 2,
      }),
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors).sort()).toEqual([
      'listingUnavailable',
      'processingMs',
      'processingShare',
      'profile',
      'readLagMs',
    ]);
    expect(await sandbox.store.getFaults(a1.sandboxAccount.id)).toMatchObject({ profile: 'x', processingMs: 0 });
  });

  it('the timeline shows the profile, and deleted copies marked (not counted)', async () => {
    const text = sandbox.uniqueText('deleted');
    const sent = await a1.client.publish({ text, kind: 'post', idempotencyKey: randomUUID() });
    await fetch(`${sandbox.url}/api/sandbox/x/2/tweets/${sent.externalId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${a1.token}` },
    });
    const body = await (await control(`/timeline?accountId=${a1.productAccountId}`, { key: keyA })).json();
    const [x] = body.accounts;
    expect(x.faults.profile).toBe('x');
    expect(x.posts.find((p: { id: string }) => p.id === sent.externalId)).toMatchObject({
      text,
      deletedAt: expect.any(String),
    });
    expect(x.total).toBe(x.posts.filter((p: { deletedAt: string | null }) => !p.deletedAt).length);
  });
});

describe('product sandbox accounts the sandbox has not seen (e.g. seeded)', () => {
  it('are registered on first use: their stored token works, and they appear in the workspace scope', async () => {
    const workspace = await makeWorkspace(sandbox.db);
    const token = `sbx_${randomUUID()}`;
    const platformUserId = String(Date.now());
    await upsertAccount(sandbox.db, {
      workspaceId: workspace.id,
      provider: 'mastodon',
      sandbox: true,
      handle: '@seeded@sandbox.social',
      platformUserId,
      baseUrl: '/api/sandbox/mastodon',
      ...sealCredentials({ accessToken: token }, TEST_ENCRYPTION_KEY),
    });
    const client = createProviderClient(
      { provider: 'mastodon', baseUrl: '/api/sandbox/mastodon', platformUserId, accessToken: token },
      { origin: sandbox.url },
    );
    expect((await client.publish({ text: 'seeded works', kind: 'post', idempotencyKey: randomUUID() })).outcome).toBe(
      'sent',
    );
    const body = await (await control('/timeline', { key: await sandbox.apiKey(workspace.id) })).json();
    expect(body.accounts).toEqual([expect.objectContaining({ handle: '@seeded@sandbox.social', total: 1 })]);
  });
});
