import { getDb } from '@/db/client';
import { listSnippets } from '@/db/queries/library';
import { apiHandler, fieldsProblem, json, readJson, validationProblem } from '@/lib/api/handler';
import { addSnippet, serializeSnippet } from '@/lib/templates/library';
import { snippetInput } from '@/lib/templates/schemas';

export const dynamic = 'force-dynamic';

/** The workspace's snippets (docs/content.md#snippets-and-templates). */
export const GET = apiHandler('posts:read', async (_request, principal) => {
  const rows = await listSnippets(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: rows.map(serializeSnippet) });
});

/** Adds a snippet; a name already used in the workspace is a 422 (nothing stored), so a retry creates no second one. */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = snippetInput.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  const result = await addSnippet(getDb(), principal.workspaceId, parsed.data);
  if (!result.ok) return fieldsProblem(result.errors);
  return json(serializeSnippet(result.value), 201);
});
