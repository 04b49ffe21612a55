import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { webhookEndpointSchema } from '../contract';
import { webhookEndpointPatch } from '@/lib/webhooks/endpoints';

/** /api/v1/webhook-endpoints/{id} — the contract of ./route.ts. */
export const webhookEndpointContract = defineRoute('/webhook-endpoints/{id}', {
  PATCH: {
    operationId: 'updateWebhookEndpoint',
    summary: 'Disable or enable a webhook endpoint',
    description:
      'A disabled endpoint gets no new events; its pending messages wait and are sent, with the same `webhook-id`, once it is enabled again.',
    scope: 'webhooks:write',
    request: {
      params: z.object({ id: z.uuid().openapi({ description: 'The endpoint id' }) }),
      body: {
        required: true,
        content: { 'application/json': { schema: named('WebhookEndpointPatch', webhookEndpointPatch) } },
      },
    },
    responses: {
      200: jsonResponse('The endpoint', webhookEndpointSchema),
      400: problemResponse('A body that is not JSON (nothing changed)'),
      404: problemResponse('No such endpoint in this workspace'),
      422: problemResponse('`enabled` missing or not a boolean, or another field (`errors`; nothing changed)'),
    },
  },
  DELETE: {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint (and its pending messages and log)',
    scope: 'webhooks:write',
    request: { params: z.object({ id: z.uuid().openapi({ description: 'The endpoint id' }) }) },
    responses: {
      204: { description: 'Deleted' },
      404: problemResponse('No such endpoint in this workspace'),
    },
  },
});
