import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { apiKeys, workspaces, type ApiKeyScope } from '../schema';

export async function createApiKey(
  db: Executor,
  params: {
    workspaceId: string;
    name: string;
    prefix: string;
    hash: string;
    scopes?: ApiKeyScope[];
    createdByUserId?: string;
  },
) {
  const [row] = await db
    .insert(apiKeys)
    .values(params)
    .returning({ id: apiKeys.id, prefix: apiKeys.prefix, name: apiKeys.name, scopes: apiKeys.scopes });
  return row!;
}

/** Resolves a presented key (by hash) to its workspace without counting a use; revoked keys resolve to nothing. */
export async function getActiveApiKeyByHash(db: Executor, params: { hash: string }) {
  const [row] = await db
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      workspaceSlug: workspaces.slug,
      scopes: apiKeys.scopes,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(and(eq(apiKeys.hash, params.hash), isNull(apiKeys.revokedAt)));
  return row ?? null;
}

export type ApiKeyUse = {
  id: string;
  workspaceId: string;
  workspaceSlug: string;
  scopes: ApiKeyScope[];
  /** Requests counted in the current one-minute window, this one included. */
  windowCount: number;
  /** When the current window ends. */
  windowResetAt: Date;
};

/**
 * Resolves a presented key (by hash) and counts the request in one atomic statement: the fixed
 * one-minute window is restarted or incremented under the row lock, so parallel requests on any
 * number of app instances count exactly. Last use is written at most once a minute (same statement).
 * Revoked and unknown keys resolve to nothing and count nothing.
 */
export async function recordApiKeyUse(db: Executor, params: { hash: string }): Promise<ApiKeyUse | null> {
  const rows = await db.execute<{
    id: string;
    workspace_id: string;
    slug: string;
    scopes: ApiKeyScope[];
    rate_window_count: number;
    window_reset_at: string;
  }>(sql`
    update api_keys k set
      -- The window never moves back: a request whose transaction began before a minute boundary but got the row
      -- after one that began after it (now() is the transaction's start) counts in the newer window. Moving back
      -- restarted the count twice at a boundary, letting up to three windows' worth through (CI-6: 18 of 24).
      rate_window_count = case when k.rate_window_start >= date_trunc('minute', now()) then k.rate_window_count + 1 else 1 end,
      rate_window_start = greatest(k.rate_window_start, date_trunc('minute', now())),
      last_used_at = case when k.last_used_at is null or k.last_used_at < now() - interval '1 minute' then now() else k.last_used_at end
    from workspaces w
    where w.id = k.workspace_id and k.hash = ${params.hash} and k.revoked_at is null
    returning k.id, k.workspace_id, w.slug, k.scopes, k.rate_window_count,
      (k.rate_window_start + interval '1 minute') as window_reset_at`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    workspaceSlug: row.slug,
    scopes: row.scopes,
    windowCount: Number(row.rate_window_count),
    windowResetAt: new Date(row.window_reset_at),
  };
}

export async function listApiKeys(db: Executor, params: { workspaceId: string }) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
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

/** A key's name in its workspace (how an API decision names who decided). */
export async function getApiKeyName(db: Executor, params: { workspaceId: string; apiKeyId: string }) {
  const [row] = await db
    .select({ name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, params.apiKeyId), eq(apiKeys.workspaceId, params.workspaceId)));
  return row?.name ?? null;
}
