import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { named, z } from '@/lib/api/contract/zod';
import { WEBHOOK_EVENT_TYPES } from '@/db/schema';
import { webhookEndpointInput } from '@/lib/webhooks/endpoints';

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .openapi('WebhookEndpoint');

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({
    secret: z.string().startsWith('whsec_').openapi({
      description: 'The signing secret (Standard Webhooks). Returned only here, once; store it now.',
    }),
  })
  .openapi('CreatedWebhookEndpoint');

/** /api/v1/webhook-endpoints — the contract of ./route.ts. */
export const webhookEndpointsContract = defineRoute('/webhook-endpoints', {
  GET: {
    operationId: 'listWebhookEndpoints',
    summary: 'Webhook endpoints of the workspace (never their secrets)',
    scope: 'webhooks:write',
    responses: { 200: jsonResponse('Endpoints', z.object({ data: z.array(webhookEndpointSchema) })) },
  },
  POST: {
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint',
    description:
      'Events are signed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Without `secret` a `whsec_…` secret is generated. The secret is in this answer only. The URL must reach a public address.',
    scope: 'webhooks:write',
    request: {
      body: {
        required: true,
        content: { 'application/json': { schema: named('WebhookEndpointInput', webhookEndpointInput) } },
      },
    },
    responses: {
      201: jsonResponse('The endpoint, with its secret (shown once)', createdWebhookEndpointSchema),
      400: problemResponse('A body that is not JSON (nothing stored)'),
      422: problemResponse(
        'Invalid fields: a URL that is not http(s), points to an internal address, or does not resolve; an unknown event (`errors`; nothing stored)',
      ),
    },
  },
});
