import { getDb } from '@/db/client';
import { getActiveApiKeyByHash } from '@/db/queries/api-keys';
import { hashApiKey } from './api-key-token';

export type ApiPrincipal = { apiKeyId: string; workspaceId: string; workspaceSlug: string };

/** `Authorization: Bearer <api key>` → the key's workspace; null for a missing, unknown or revoked key. */
export async function authenticateApiKey(request: Request): Promise<ApiPrincipal | null> {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return null;
  const row = await getActiveApiKeyByHash(getDb(), { hash: hashApiKey(match[1]!) });
  return row ? { apiKeyId: row.id, workspaceId: row.workspaceId, workspaceSlug: row.workspaceSlug } : null;
}
