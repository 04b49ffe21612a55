import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { createApiKey } from '@/db/queries/api-keys';
import { upsertAccount } from '@/db/queries/accounts';
import { makeWorkspace } from './db/factories';
import { createTestDatabase } from './db/test-database';
import { TEST_ENCRYPTION_KEY } from './keys';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { sealCredentials } from '@/lib/providers/credentials';
import { createProviderClient } from '@/lib/providers';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { registerSandboxIdentity as registerIdentity, type ConnectOptions } from '@/lib/sandbox/register-identity';
import { NO_FAULTS, type FaultsUpdate, type Platform, type SandboxDeps } from '@/sandbox/store/types';
import { registerProductSandboxAccounts, workspaceScopeResolver } from '@/lib/sandbox/workspace-scope';

export type { ConnectOptions };

/**
 * The standalone sandbox server in-process on a random port, on this test file's own database
 * (no Next needed). Accounts are connected the way the app does it: registered on the sandbox and
 * stored, sealed, as product social accounts of a workspace.
 */
export async function startTestSandbox(
  options: {
    destroySocketOnReset?: boolean;
    hangMs?: number;
    lockWaitMs?: number;
    fetchImage?: (url: string) => Promise<Uint8Array | null>;
    /** Who is signed in on the OAuth consent page (default: a member with no sandbox users yet; null: nobody). */
    consentScope?: SandboxDeps['consentScope'];
    /** The platforms' webhooks the sandbox sends (default: none). */
    webhooks?: SandboxDeps['webhooks'];
  } = {},
) {
  const database = await createTestDatabase({ max: 40 });
  const { db } = database;
  const store = createPgSandboxStore(db, {
    onUnknownToken: () => registerProductSandboxAccounts(db, TEST_ENCRYPTION_KEY),
  });
  const server = await startSandboxServer({
    deps: {
      store,
      resolveScope: workspaceScopeResolver({ db, encryptionKey: TEST_ENCRYPTION_KEY }),
      hangMs: options.hangMs ?? 5_000,
      lockWaitMs: options.lockWaitMs,
      consentScope: options.consentScope ?? (async () => []),
      // No network here: an image URL the test does not serve is one the platform cannot fetch.
      fetchImage: options.fetchImage ?? (async () => null),
      webhooks: options.webhooks,
    },
    destroySocketOnReset: options.destroySocketOnReset,
  });
  afterAll(() => server.close());

  async function connectAccount(platform: Platform, workspaceId?: string, options: ConnectOptions = {}) {
    const workspace = workspaceId ?? (await makeWorkspace(db)).id;
    const { platformUserId, token, handle, credentials, sandboxAccount } = await registerIdentity(
      store,
      platform,
      'sbx',
      options,
    );
    const product = await upsertAccount(db, {
      workspaceId: workspace,
      provider: platform,
      sandbox: true,
      handle,
      platformUserId,
      baseUrl: `/api/sandbox/${platform}`,
      ...sealCredentials(credentials, TEST_ENCRYPTION_KEY),
    });
    const client = createProviderClient(
      {
        provider: platform,
        baseUrl: `/api/sandbox/${platform}`,
        platformUserId,
        accessToken: credentials.accessToken,
        credentials,
      },
      { origin: server.url },
    );
    return {
      workspaceId: workspace,
      productAccountId: product!.id,
      sandboxAccount,
      token,
      credentials,
      platformUserId,
      client,
    };
  }

  return {
    db,
    url: server.url,
    store,
    connectAccount,
    /** A full replacement, like PUT /api/sandbox/faults: what is not given is off (profile: the platform's default). */
    setFaults: (sandboxAccountId: string, faults: Partial<FaultsUpdate>) =>
      store.setFaults([sandboxAccountId], { ...NO_FAULTS, ...faults }),
    /** Live copies on the platform's own records (not via our database). */
    copies: async (sandboxAccountId: string) => (await store.countPosts([sandboxAccountId])).get(sandboxAccountId) ?? 0,
    /** Live copies with exactly this text. */
    copiesOfText: async (sandboxAccountId: string, text: string) =>
      (await store.listAllPosts(sandboxAccountId)).filter((p) => p.text === text && !p.deletedAt).length,
    /** Every copy ever stored, deleted ones included. */
    allPosts: (sandboxAccountId: string) => store.listAllPosts(sandboxAccountId),
    /** A workspace API key with the default scopes plus `accounts:write` (the sandbox control's changes need it). */
    apiKey: async (workspaceId: string) => {
      const key = generateApiKey();
      const scopes = ['posts:read', 'posts:write', 'accounts:read', 'accounts:write'] as const;
      await createApiKey(db, { workspaceId, name: 'test', prefix: key.prefix, hash: key.hash, scopes: [...scopes] });
      return key.token;
    },
    uniqueText: (label: string) => `${label} ${randomUUID().slice(0, 8)}`,
  };
}

/**
 * The same standalone server on the in-memory store (as `npm run sandbox -- --memory`, the benchmark and
 * the chaos run use it), with the same helpers, so a test can prove both stores behave alike.
 */
export async function startMemoryTestSandbox(
  options: { hangMs?: number; lockWaitMs?: number; fetchImage?: (url: string) => Promise<Uint8Array | null> } = {},
) {
  const store = createMemorySandboxStore();
  const server = await startSandboxServer({
    deps: {
      store,
      resolveScope: async () => [],
      consentScope: async () => [], // a signed-in member with no sandbox users yet
      hangMs: options.hangMs ?? 5_000,
      lockWaitMs: options.lockWaitMs,
      fetchImage: options.fetchImage,
    },
  });
  afterAll(() => server.close());
  return {
    url: server.url,
    store,
    async connectAccount(platform: Platform, options: ConnectOptions = {}) {
      const { platformUserId, token, credentials, sandboxAccount } = await registerIdentity(
        store,
        platform,
        'mem',
        options,
      );
      const client = createProviderClient(
        {
          provider: platform,
          baseUrl: `/api/sandbox/${platform}`,
          platformUserId,
          accessToken: credentials.accessToken,
          credentials,
        },
        { origin: server.url },
      );
      return { sandboxAccount, token, credentials, platformUserId, client };
    },
    setFaults: (sandboxAccountId: string, faults: Partial<FaultsUpdate>) =>
      store.setFaults([sandboxAccountId], { ...NO_FAULTS, ...faults }),
    copies: async (sandboxAccountId: string) => (await store.countPosts([sandboxAccountId])).get(sandboxAccountId) ?? 0,
    copiesOfText: async (sandboxAccountId: string, text: string) =>
      (await store.listAllPosts(sandboxAccountId)).filter((p) => p.text === text && !p.deletedAt).length,
    allPosts: (sandboxAccountId: string) => store.listAllPosts(sandboxAccountId),
    uniqueText: (label: string) => `${label} ${randomUUID().slice(0, 8)}`,
  };
}
