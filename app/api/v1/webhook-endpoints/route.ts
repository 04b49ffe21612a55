import { getDb } from '@/db/client';
import { listWebhookEndpoints } from '@/db/queries/webhooks';
import { apiHandler, json, readJson, validationProblem } from '@/lib/api/handler';
import { getEnv } from '@/lib/env';
import { problem } from '@/lib/http/problem';
import { createEndpoint, webhookEndpointInput } from '@/lib/webhooks/endpoints';
import { shownEndpoint } from './shown';

export const dynamic = 'force-dynamic';

/** The workspace's endpoints, without secrets. */
export const GET = apiHandler('webhooks:write', async (_request, principal) => {
  const endpoints = await listWebhookEndpoints(getDb(), { workspaceId: principal.workspaceId });
  return json({ data: endpoints.map(shownEndpoint) });
});

/** Adds an endpoint; its secret is in this answer only. */
export const POST = apiHandler('webhooks:write', async (request, principal) => {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = webhookEndpointInput.safeParse(body.value);
  if (!parsed.success) return validationProblem(parsed.error);
  const result = await createEndpoint(getDb(), {
    ...parsed.data,
    workspaceId: principal.workspaceId,
    encryptionKey: getEnv().APP_ENCRYPTION_KEY,
  });
  if (result.kind === 'refused')
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'The request has invalid fields; nothing was stored.',
      errors: { [result.field]: [result.message] },
    });
  return json({ ...shownEndpoint(result.endpoint), secret: result.secret }, 201);
});
