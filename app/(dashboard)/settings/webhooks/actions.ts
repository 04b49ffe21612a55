'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import {
  deleteWebhookEndpoint,
  insertTestWebhookEvent,
  redeliverWebhookMessage,
  setWebhookEndpointEnabled,
} from '@/db/queries/webhooks';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { createEndpoint, webhookEndpointInput } from '@/lib/webhooks/endpoints';
import { deliverDueWebhooks } from '@/lib/webhooks/send';

const PATH = '/settings/webhooks';

/** The form's fields: an unchecked checkbox group sends nothing (no events), a blank secret means "generate one". */
const createSchema = z.preprocess((v) => {
  const input = v as Record<string, unknown>;
  const events = input.events === undefined ? [] : [input.events].flat();
  return { url: input.url, events, ...(input.secret ? { secret: input.secret } : {}) };
}, webhookEndpointInput);

/** The secret is returned once, to the admin who created the endpoint; only its sealed form is stored. */
export const createWebhookEndpointAction = workspaceAction(
  { name: 'createWebhookEndpoint', can: 'manageWebhooks', schema: createSchema },
  async (input, { workspace, user }) => {
    const result = await createEndpoint(getDb(), {
      ...input,
      workspaceId: workspace.id,
      createdByUserId: user.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
    if (result.kind === 'refused')
      return {
        ok: false,
        status: 422,
        errors: { url: [result.message] },
        message: 'Please fix the highlighted fields.',
      };
    revalidatePath(PATH);
    return {
      ok: true,
      message: 'Endpoint added. Copy its signing secret now: it will not be shown again.',
      data: { secret: result.secret },
    };
  },
);

export const deleteWebhookEndpointAction = workspaceAction(
  { name: 'deleteWebhookEndpoint', can: 'manageWebhooks', schema: z.object({ endpointId: z.uuid() }) },
  async ({ endpointId }, { workspace }) => {
    const deleted = await deleteWebhookEndpoint(getDb(), { workspaceId: workspace.id, endpointId });
    revalidatePath(PATH);
    return { ok: true, message: deleted ? 'Endpoint deleted.' : 'That endpoint was already deleted.' };
  },
);

/** Pauses or resumes an endpoint (pending messages wait while it is disabled, then go out with their same ids). */
export const setWebhookEndpointEnabledAction = workspaceAction(
  {
    name: 'setWebhookEndpointEnabled',
    can: 'manageWebhooks',
    schema: z.object({ endpointId: z.uuid(), enabled: z.enum(['true', 'false']) }),
  },
  async ({ endpointId, enabled }, { workspace }) => {
    const row = await setWebhookEndpointEnabled(getDb(), {
      workspaceId: workspace.id,
      endpointId,
      enabled: enabled === 'true',
    });
    if (!row) return { ok: false, status: 404, message: 'No such endpoint in this workspace.' };
    revalidatePath(PATH);
    return {
      ok: true,
      message: row.enabled ? 'Enabled: waiting events go out now.' : 'Disabled: nothing is sent until you enable it.',
    };
  },
);

/** Sends one message now (it stays in the log and is retried like any other if the receiver fails). */
async function sendNow(messageId: string) {
  await deliverDueWebhooks(getDb(), { messageIds: [messageId] });
  revalidatePath(PATH);
}

export const sendTestWebhookAction = workspaceAction(
  { name: 'sendTestWebhook', can: 'manageWebhooks', schema: z.object({ endpointId: z.uuid() }) },
  async ({ endpointId }, { workspace, user }) => {
    const messageId = await insertTestWebhookEvent(getDb(), {
      workspaceId: workspace.id,
      endpointId,
      data: { message: 'A test event from Semel', workspaceId: workspace.id, sentBy: user.id },
    });
    if (!messageId)
      return { ok: false, status: 404, message: 'No enabled endpoint of that id in this workspace: enable it first.' };
    await sendNow(messageId);
    return { ok: true, message: 'Test event sent; its result is in the log below.' };
  },
);

export const redeliverWebhookAction = workspaceAction(
  { name: 'redeliverWebhook', can: 'manageWebhooks', schema: z.object({ messageId: z.uuid() }) },
  async ({ messageId }, { workspace }) => {
    const found = await redeliverWebhookMessage(getDb(), { workspaceId: workspace.id, messageId });
    if (!found) return { ok: false, status: 404, message: 'No such message in this workspace.' };
    await sendNow(messageId);
    return { ok: true, message: 'Sent again with the same webhook-id.' };
  },
);
