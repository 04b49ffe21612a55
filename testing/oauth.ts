import { afterAll } from 'vitest';
import { makeUser, makeWorkspace } from './db/factories';
import { createTestDatabase } from './db/test-database';
import type { ProviderTransport } from '@/lib/providers/transport';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { TEST_ENCRYPTION_KEY } from './keys';
import type { Platform, SandboxStore } from '@/sandbox/store/types';
import {
  registerProductSandboxAccounts,
  workspaceSandboxScope,
  workspaceScopeResolver,
} from '@/lib/sandbox/workspace-scope';
import { completeOAuthConnect, startOAuthConnect } from '@/lib/oauth/connect';

/**
 * The sandbox network in its own node:http server on this test file's database, with its OAuth server, and the
 * app's connect use cases pointed at it: the test plays the admin's browser (GET the consent page, POST the form,
 * follow the redirect back). `signedInWorkspace` is whose sandbox users the consent page offers ("signed in").
 */
export async function startOAuthSandbox(options: { tokenTtlSeconds?: number; transport?: ProviderTransport } = {}) {
  const database = await createTestDatabase({ max: 30 });
  const { db } = database;
  let signedInWorkspace: string | null = null;
  const store: SandboxStore = createPgSandboxStore(db, {
    onUnknownToken: () => registerProductSandboxAccounts(db, TEST_ENCRYPTION_KEY),
  });
  const server = await startSandboxServer({
    deps: {
      store,
      resolveScope: workspaceScopeResolver({ db, encryptionKey: TEST_ENCRYPTION_KEY }),
      consentScope: async () =>
        signedInWorkspace
          ? workspaceSandboxScope(db, { workspaceId: signedInWorkspace, encryptionKey: TEST_ENCRYPTION_KEY })
          : null,
      oauthTokenTtlSeconds: options.tokenTtlSeconds,
    },
  });
  afterAll(() => server.close());

  async function admin() {
    const workspace = await makeWorkspace(db);
    const user = await makeUser(db);
    return { workspaceId: workspace.id, userId: user.id };
  }

  /** Start → consent page → the form posted (as `account`: 'new' or a sandbox account id) → the redirect back. */
  async function consent(params: {
    provider: Platform;
    workspaceId: string;
    userId: string;
    decision?: 'authorize' | 'deny';
    account?: string;
    loginHint?: string;
  }) {
    const started = await startOAuthConnect(db, {
      provider: params.provider,
      sandbox: true,
      origin: server.url,
      serverOrigin: server.url,
      workspaceId: params.workspaceId,
      userId: params.userId,
      encryptionKey: TEST_ENCRYPTION_KEY,
      loginHint: params.loginHint,
    });
    if (!started.ok) throw new Error(`start refused: ${started.problem}`);
    signedInWorkspace = params.workspaceId;
    const page = await fetch(started.url, { redirect: 'manual' });
    const html = await page.text();
    const answer = await fetch(started.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision: params.decision ?? 'authorize', account: params.account ?? 'new' }),
    });
    const location = new URL(answer.headers.get('location') ?? 'http://invalid/');
    return { authorizeUrl: new URL(started.url), page, html, answer, callback: location.searchParams };
  }

  /** What the callback route does with the browser's return: the app's use case, with this admin's session. */
  function complete(
    params: { provider: Platform; workspaceId: string; userId: string },
    callback: URLSearchParams,
    transport = options.transport,
  ) {
    return completeOAuthConnect(db, {
      ...params,
      encryptionKey: TEST_ENCRYPTION_KEY,
      serverOrigin: server.url,
      transport,
      query: { state: callback.get('state'), code: callback.get('code'), error: callback.get('error') },
    });
  }

  /** The whole connect, authorized. */
  async function connect(params: { provider: Platform; workspaceId: string; userId: string; account?: string }) {
    const { callback } = await consent(params);
    const result = await complete(params, callback);
    if (!result.ok) throw new Error(`connect failed: ${result.problem}`);
    return result.accounts;
  }

  /** The member signed in to the app in this workspace, as the consent page sees them (null: nobody). */
  const signIn = (workspaceId: string | null) => void (signedInWorkspace = workspaceId);

  return { db, url: server.url, store, admin, consent, complete, connect, signIn };
}
