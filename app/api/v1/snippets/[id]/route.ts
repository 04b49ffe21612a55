import { getDb } from '@/db/client';
import { deleteSnippet } from '@/db/queries/library';
import { apiHandler } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deletes a snippet (posts that used it keep their text). */
export const DELETE = apiHandler<{ id: string }>('posts:write', async (_request, principal, { id }) => {
  const deleted = UUID.test(id) && (await deleteSnippet(getDb(), { workspaceId: principal.workspaceId, id }));
  if (!deleted) return problem({ status: 404, title: 'Not Found', detail: 'No such snippet in this workspace.' });
  return new Response(null, { status: 204 });
});
