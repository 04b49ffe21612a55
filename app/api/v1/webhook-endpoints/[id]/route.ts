import { getDb } from '@/db/client';
import { deleteWebhookEndpoint } from '@/db/queries/webhooks';
import { apiHandler } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deletes the endpoint; nothing more is sent to it. */
export const DELETE = apiHandler<{ id: string }>('webhooks:write', async (_request, principal, { id }) => {
  const deleted =
    UUID.test(id) && (await deleteWebhookEndpoint(getDb(), { workspaceId: principal.workspaceId, endpointId: id }));
  if (!deleted)
    return problem({ status: 404, title: 'Not Found', detail: 'No such webhook endpoint in this workspace.' });
  return new Response(null, { status: 204 });
});
