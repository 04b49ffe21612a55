import { getDb } from '@/db/client';
import { recordApiKeyUse } from '@/db/queries/api-keys';
import type { ApiKeyScope } from '@/db/schema';
import { getEnv } from '@/lib/env';
import { hashApiKey } from './api-key-token';

export type ApiPrincipal = { apiKeyId: string; workspaceId: string; workspaceSlug: string; scopes: ApiKeyScope[] };

/** The key's rate window after counting this request (for the RateLimit-* headers). */
export type RateState = { limit: number; remaining: number; resetSeconds: number; exceeded: boolean };

/**
 * `Authorization: Bearer <api key>` → the key's workspace and scopes, with this request counted against
 * the key's per-minute limit; null for a missing, unknown or revoked key.
 */
export async function authenticateApiKey(
  request: Request,
  now = Date.now(),
): Promise<{ principal: ApiPrincipal; rate: RateState } | null> {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return null;
  const row = await recordApiKeyUse(getDb(), { hash: hashApiKey(match[1]!) });
  if (!row) return null;
  return {
    principal: { apiKeyId: row.id, workspaceId: row.workspaceId, workspaceSlug: row.workspaceSlug, scopes: row.scopes },
    rate: rateStateOf(row, now),
  };
}

/** The key's per-minute window after recordApiKeyUse counted a request (the API and the sandbox control share it). */
export function rateStateOf(use: { windowCount: number; windowResetAt: Date }, now = Date.now()): RateState {
  const limit = getEnv().API_RATE_LIMIT_PER_MINUTE;
  return {
    limit,
    remaining: Math.max(0, limit - use.windowCount),
    resetSeconds: Math.max(1, Math.ceil((use.windowResetAt.getTime() - now) / 1000)),
    exceeded: use.windowCount > limit,
  };
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), sent on every authenticated answer. */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
  return {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': String(rate.resetSeconds),
  };
}
