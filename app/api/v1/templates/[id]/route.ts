import { getDb } from '@/db/client';
import { deleteTemplate, getTemplate } from '@/db/queries/library';
import { apiHandler, json, readKeyedRequest } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { updateTemplateOnce } from '@/lib/templates/keyed';
import { serializeTemplate } from '@/lib/templates/library';
import { templatePatch } from '@/lib/templates/schemas';
import { keyedLibraryResponse } from '../http';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => problem({ status: 404, title: 'Not Found', detail: 'No such template in this workspace.' });

export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) => {
  const row = UUID.test(id) ? await getTemplate(getDb(), { workspaceId: principal.workspaceId, id }) : null;
  return row ? json(serializeTemplate(row)) : notFound();
});

/**
 * Changes a template's fields (those given; `null` removes a first comment or a time), exactly once per
 * Idempotency-Key; posts made from it before keep their text.
 */
export const PATCH = apiHandler<{ id: string }>('posts:write', async (request, principal, { id }) => {
  const input = await readKeyedRequest(request, templatePatch);
  if (!input.ok) return input.response;
  if (!UUID.test(id)) return notFound();
  const result = await updateTemplateOnce(getDb(), id, input.data, {
    workspaceId: principal.workspaceId,
    idempotencyKey: input.key,
  });
  return keyedLibraryResponse(result, (templateId) => `/api/v1/templates/${templateId}`);
});

/** Deletes a template (posts made from it keep their text). */
export const DELETE = apiHandler<{ id: string }>('posts:write', async (_request, principal, { id }) => {
  const deleted = UUID.test(id) && (await deleteTemplate(getDb(), { workspaceId: principal.workspaceId, id }));
  return deleted ? new Response(null, { status: 204 }) : notFound();
});
