import { getDb } from '@/db/client';
import { listTemplates } from '@/db/queries/library';
import { apiHandler, fieldsProblem, json, readJson, validationProblem } from '@/lib/api/handler';
import { addTemplate, serializeTemplate } from '@/lib/templates/library';
import { templateInput } from '@/lib/templates/schemas';

export const dynamic = 'force-dynamic';

/** The workspace's post templates (docs/content.md#snippets-and-templates). */
export const GET = apiHandler('posts:read', async (_request, principal) => {
  const rows = await listTemplates(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: rows.map(serializeTemplate) });
});

/** Adds a template; its accounts and images must be this workspace's; a name already used is a 422. */
export const POST = apiHandler('posts:write', async (request, principal) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = templateInput.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  const result = await addTemplate(getDb(), principal.workspaceId, parsed.data);
  if (!result.ok) return fieldsProblem(result.errors);
  return json(serializeTemplate(result.value), 201);
});
