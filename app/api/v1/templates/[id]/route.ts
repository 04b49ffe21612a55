import { getDb } from '@/db/client';
import { deleteTemplate, getTemplate } from '@/db/queries/library';
import { apiHandler, json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { serializeTemplate } from '@/lib/templates/library';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => problem({ status: 404, title: 'Not Found', detail: 'No such template in this workspace.' });

export const GET = apiHandler<{ id: string }>('posts:read', async (_request, principal, { id }) => {
  const row = UUID.test(id) ? await getTemplate(getDb(), { workspaceId: principal.workspaceId, id }) : null;
  return row ? json(serializeTemplate(row)) : notFound();
});

/** Deletes a template (posts made from it keep their text). */
export const DELETE = apiHandler<{ id: string }>('posts:write', async (_request, principal, { id }) => {
  const deleted = UUID.test(id) && (await deleteTemplate(getDb(), { workspaceId: principal.workspaceId, id }));
  return deleted ? new Response(null, { status: 204 }) : notFound();
});
