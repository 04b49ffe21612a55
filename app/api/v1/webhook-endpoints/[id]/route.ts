import { getDb } from '@/db/client';
import { deleteWebhookEndpoint, setWebhookEndpointEnabled } from '@/db/queries/webhooks';
import { apiHandler, json, readJson, validationProblem } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { webhookEndpointPatch } from '@/lib/webhooks/endpoints';
import { shownEndpoint } from '../shown';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () =>
  problem({ status: 404, title: 'Not Found', detail: 'No such webhook endpoint in this workspace.' });

/** Pauses (`enabled: false`) or resumes an endpoint; pending messages wait meanwhile and keep their ids. */
export const PATCH = apiHandler<{ id: string }>('webhooks:write', async (request, principal, { id }) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = webhookEndpointPatch.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  const row = UUID.test(id)
    ? await setWebhookEndpointEnabled(getDb(), {
        workspaceId: principal.workspaceId,
        endpointId: id,
        enabled: parsed.data.enabled,
      })
    : null;
  return row ? json(shownEndpoint(row)) : notFound();
});

/** Deletes the endpoint; nothing more is sent to it. */
export const DELETE = apiHandler<{ id: string }>('webhooks:write', async (_request, principal, { id }) => {
  const deleted =
    UUID.test(id) && (await deleteWebhookEndpoint(getDb(), { workspaceId: principal.workspaceId, endpointId: id }));
  if (!deleted) return notFound();
  return new Response(null, { status: 204 });
});
