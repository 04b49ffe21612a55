import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../client';
import { apiKeys, workspaces } from '../schema';

export async function createApiKey(db: Executor, params: { workspaceId: string; name: string; prefix: string; hash: string; createdByUserId?: string }) {
  const [row] = await db.insert(apiKeys).values(params).returning({ id: apiKeys.id, prefix: apiKeys.prefix, name: apiKeys.name });
  return row!;
}

/** Resolves a presented key (by hash) to its workspace; revoked keys resolve to nothing. */
export async function getActiveApiKeyByHash(db: Executor, params: { hash: string }) {
  const [row] = await db
    .select({ id: apiKeys.id, workspaceId: apiKeys.workspaceId, workspaceSlug: workspaces.slug })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.hash, params.hash), isNull(apiKeys.revokedAt)));
  return row ?? null;
}

export async function listApiKeys(db: Executor, params: { workspaceId: string }) {
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, params.workspaceId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function revokeApiKey(db: Executor, params: { workspaceId: string; apiKeyId: string }) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, params.apiKeyId), eq(apiKeys.workspaceId, params.workspaceId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return row ?? null;
}
