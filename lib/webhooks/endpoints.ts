import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Executor } from '@/db/client';
import { WEBHOOK_EVENT_TYPES } from '@/db/schema';
import { createWebhookEndpoint } from '@/db/queries/webhooks';
import { generateWebhookSecret, sealWebhookSecret, WEBHOOK_SECRET_PATTERN } from './secret';
import { webhookUrlRefusal, webhookUrlShapeRefusal, type HostResolver } from './url';
import type { AllowList } from '@/lib/net/outbound-guard';

/** The body of POST /api/v1/webhook-endpoints and of the Settings → Webhooks form. */
export const webhookEndpointInput = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, 'Enter the URL that receives the events')
      .superRefine((url, ctx) => {
        const refusal = webhookUrlShapeRefusal(url);
        if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
      }),
    secret: z
      .string()
      .regex(WEBHOOK_SECRET_PATTERN, 'A secret is whsec_ followed by 24 to 64 bytes in base64')
      .optional(),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `Events are ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
      .min(1, 'Choose at least one event')
      .transform((events) => [...new Set(events)]),
  })
  .strict();
/** PATCH /api/v1/webhook-endpoints/{id}: `enabled` is what changes in place (a new URL or secret is a new endpoint). */
export const webhookEndpointPatch = z.object({ enabled: z.boolean({ error: 'enabled is true or false' }) }).strict();

export type WebhookEndpointInput = z.output<typeof webhookEndpointInput>;

export type CreateWebhookEndpointResult =
  | {
      kind: 'created';
      endpoint: { id: string; url: string; events: string[]; enabled: boolean; createdAt: Date };
      /** Shown once, to whoever created the endpoint; only its sealed form is stored. */
      secret: string;
    }
  | { kind: 'refused'; field: 'url'; message: string };

/** Creates an endpoint whose URL passed the outbound guard; generates a `whsec_` secret when none is given. */
export async function createEndpoint(
  db: Executor,
  params: WebhookEndpointInput & { workspaceId: string; createdByUserId?: string | null; encryptionKey: string },
  guard: { allow?: AllowList; resolve?: HostResolver } = {},
): Promise<CreateWebhookEndpointResult> {
  const refusal = await webhookUrlRefusal(params.url, guard);
  if (refusal) return { kind: 'refused', field: 'url', message: refusal };
  const id = randomUUID();
  const secret = params.secret ?? generateWebhookSecret();
  const endpoint = await createWebhookEndpoint(db, {
    id,
    workspaceId: params.workspaceId,
    url: params.url,
    secretSealed: sealWebhookSecret(secret, params.encryptionKey, id),
    events: params.events,
    createdByUserId: params.createdByUserId ?? null,
  });
  return { kind: 'created', endpoint, secret };
}
