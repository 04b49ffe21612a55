import { defineRoute, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

/** /api/v1/webhook-endpoints/{id} — the contract of ./route.ts. */
export const webhookEndpointContract = defineRoute('/webhook-endpoints/{id}', {
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
