import { getDb } from '@/db/client';
import { listTemplates } from '@/db/queries/library';
import { apiHandler, json, readKeyedRequest } from '@/lib/api/handler';
import { createTemplateOnce } from '@/lib/templates/keyed';
import { serializeTemplate } from '@/lib/templates/library';
import { templateInput } from '@/lib/templates/schemas';
import { keyedLibraryResponse } from './http';

export const dynamic = 'force-dynamic';

/** The workspace's post templates (docs/content.md#snippets-and-templates). */
export const GET = apiHandler('posts:read', async (_request, principal) => {
  const rows = await listTemplates(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: rows.map(serializeTemplate) });
});

/**
 * Adds a template, exactly once per Idempotency-Key; its accounts and images must be this workspace's; a name another
 * intent already used is a 422.
 */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const input = await readKeyedRequest(request, templateInput);
  if (!input.ok) return input.response;
  const result = await createTemplateOnce(getDb(), input.data, {
    workspaceId: principal.workspaceId,
    idempotencyKey: input.key,
  });
  return keyedLibraryResponse(result, (id) => `/api/v1/templates/${id}`);
});
