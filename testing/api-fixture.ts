import { createApiKey } from '@/db/queries/api-keys';
import type { Executor } from '@/db/client';
import type { ApiKeyScope } from '@/db/schema';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { makeAccount, makeWorkspace } from './db/factories';
import { createTestDatabase } from './db/test-database';

/**
 * A test database that the app's own `getDb()` uses (route handlers are called in-process with real
 * Requests), plus a workspace with accounts and an API key.
 */
export async function createApiFixture() {
  const testDb = await createTestDatabase({ max: 50 });
  process.env.DATABASE_URL = testDb.url;
  const tenant = async () => {
    const workspace = await makeWorkspace(testDb.db);
    const accounts = [await makeAccount(testDb.db, workspace.id), await makeAccount(testDb.db, workspace.id)];
    const key = generateApiKey();
    await createApiKey(testDb.db, { workspaceId: workspace.id, name: 'test', prefix: key.prefix, hash: key.hash });
    return { workspace, accounts, token: key.token };
  };
  return { ...testDb, tenant };
}

export function apiRequest(
  path: string,
  init: { method?: string; token?: string; key?: string; body?: unknown; rawBody?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.key !== undefined) headers['idempotency-key'] = init.key;
  return new Request(`http://localhost${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
}

export const noParams = { params: Promise.resolve({}) as Promise<Record<string, never>> };
export const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

/** Another API key of a workspace with exactly these scopes; returns its token. */
export async function makeScopedApiKey(db: Executor, workspaceId: string, scopes: ApiKeyScope[]) {
  const key = generateApiKey();
  await createApiKey(db, { workspaceId, name: scopes.join(' '), prefix: key.prefix, hash: key.hash, scopes });
  return key.token;
}
