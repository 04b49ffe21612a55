'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { deleteSlackWebhook, setEmailMode } from '@/db/queries/notification-settings';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
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
