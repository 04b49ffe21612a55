import { getDb } from '@/db/client';
import { listSnippets } from '@/db/queries/library';
import { apiHandler, json, readKeyedRequest } from '@/lib/api/handler';
import { createSnippetOnce } from '@/lib/templates/keyed';
import { serializeSnippet } from '@/lib/templates/library';
import { snippetInput } from '@/lib/templates/schemas';
import { keyedLibraryResponse } from '../templates/http';

export const dynamic = 'force-dynamic';

/** The workspace's snippets (docs/content.md#snippets-and-templates). */
export const GET = apiHandler('posts:read', async (_request, principal) => {
  const rows = await listSnippets(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: rows.map(serializeSnippet) });
});

/**
 * Adds a snippet, exactly once per Idempotency-Key (a retry is answered its first 201, marked replayed); a name another
 * intent already used in the workspace is a 422 (nothing stored).
 */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const input = await readKeyedRequest(request, snippetInput);
  if (!input.ok) return input.response;
  const result = await createSnippetOnce(getDb(), input.data, {
    workspaceId: principal.workspaceId,
    idempotencyKey: input.key,
  });
  return keyedLibraryResponse(result, (id) => `/api/v1/snippets/${id}`);
});
