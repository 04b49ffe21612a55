'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { randomUUID } from 'node:crypto';
import { getNotificationSendResult, insertSlackTestSend } from '@/db/queries/notification-sends';
import { deleteSlackWebhook, setEmailMode, setInboxMode } from '@/db/queries/notification-settings';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { deliverDueNotifications } from '@/lib/notifications/send';
import { saveSlackWebhook } from '@/lib/notifications/slack-settings';

const PATH = '/settings/notifications';

/** Every member chooses for themselves only: the user id comes from the session, never the form. */
export const setEmailModeAction = workspaceAction(
  {
    name: 'setEmailMode',
    role: 'viewer',
    schema: z.object({
      emailMode: z.enum(['immediately', 'digest', 'off'], { error: 'Choose immediately, daily digest or off.' }),
    }),
  },
  async ({ emailMode }, { workspace, user }) => {
    await setEmailMode(getDb(), { workspaceId: workspace.id, userId: user.id, emailMode });
    revalidatePath(PATH);
    return { ok: true, message: 'Saved. It applies to notifications from now on.' };
  },
);

/** The member's own choice for new inbox messages (docs/inbox.md#notifications). */
export const setInboxModeAction = workspaceAction(
  {
    name: 'setInboxMode',
    role: 'viewer',
    schema: z.object({
      inboxMode: z.enum(['immediately', 'digest', 'off'], { error: 'Choose immediately, daily digest or off.' }),
    }),
  },
  async ({ inboxMode }, { workspace, user }) => {
    await setInboxMode(getDb(), { workspaceId: workspace.id, userId: user.id, inboxMode });
    revalidatePath(PATH);
    return { ok: true, message: 'Saved. It applies to new messages from now on.' };
  },
);

export const saveSlackWebhookAction = workspaceAction(
  {
    name: 'saveSlackWebhook',
    can: 'manageWebhooks',
    schema: z.object({ url: z.string().trim().min(1, 'Paste the incoming-webhook URL from Slack.') }),
  },
  async ({ url }, { workspace, user }) => {
    const result = await saveSlackWebhook(getDb(), {
      workspaceId: workspace.id,
      url,
      userId: user.id,
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
    return { ok: true, message: `Slack webhook saved (${result.host}).` };
  },
);

export const removeSlackWebhookAction = workspaceAction(
  { name: 'removeSlackWebhook', can: 'manageWebhooks', schema: z.object({}) },
  async (_input, { workspace }) => {
    await deleteSlackWebhook(getDb(), { workspaceId: workspace.id });
    revalidatePath(PATH);
    return { ok: true, message: 'Slack webhook removed.' };
  },
);

/** How long the test waits for a send the background sender took first (its call's timeout is 10 s). */
const TEST_SEND_WAIT_MS = 12_000;

/** Posts one test message now through the same sender (guard, timeout); a failure is retried like any other. */
export const sendSlackTestAction = workspaceAction(
  { name: 'sendSlackTest', can: 'manageWebhooks', schema: z.object({}) },
  async (_input, { workspace }) => {
    const db = getDb();
    const id = await insertSlackTestSend(db, { workspaceId: workspace.id, testId: randomUUID() });
    if (!id) return { ok: false, status: 404, message: 'No Slack webhook is set.' };
    await deliverDueNotifications(db, { sendIds: [id] });
    // The background sender may have claimed it first: its attempt's outcome is waited for (pending with no error
    // yet), as long as one send may take, rather than reported as "unknown".
    let result = await getNotificationSendResult(db, { workspaceId: workspace.id, id });
    for (let waited = 0; result?.status === 'pending' && !result.lastError && waited < TEST_SEND_WAIT_MS;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      waited += 250;
      result = await getNotificationSendResult(db, { workspaceId: workspace.id, id });
    }
    return result?.status === 'sent'
      ? { ok: true, message: 'Test message sent to Slack.' }
      : {
          ok: false,
          status: 502,
          message: `Slack did not take it (${result?.lastError ?? 'unknown'}); it will be retried.`,
        };
  },
);
