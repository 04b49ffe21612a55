'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { insertAuditEntry, setApprovalRequired } from '@/db/queries/approvals';
import { setRequireAltText } from '@/db/queries/media';
import { getDb } from '@/db/client';
import { renameWorkspace, setLatenessLimit, setWorkspaceTimeZone } from '@/db/queries/workspaces';
import { workspaceAction } from '@/lib/auth/action';
import { canonicalTimeZone } from '@/lib/time/zoned';

export const renameWorkspaceAction = workspaceAction(
  {
    name: 'renameWorkspace',
    can: 'manageWorkspace',
    schema: z.object({ name: z.string().trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters') }),
  },
  async ({ name }, { workspace, user }) => {
    await getDb().transaction(async (tx) => {
      await renameWorkspace(tx, { workspaceId: workspace.id, name });
      await insertAuditEntry(tx, {
        workspaceId: workspace.id,
        actorUserId: user.id,
        action: 'workspace.renamed',
        targetType: 'workspace',
        targetId: workspace.id,
        detail: { from: workspace.name, to: name },
      });
    });
    revalidatePath('/', 'layout');
    return { ok: true, message: 'Workspace renamed.' };
  },
);

/** How late a post may still go out; past it a due delivery becomes "missed" instead of publishing late. */
export const setLatenessLimitAction = workspaceAction(
  {
    name: 'setLatenessLimit',
    can: 'manageWorkspace',
    schema: z.object({
      minutes: z.coerce
        .number({ error: 'Enter a number of minutes' })
        .int('Whole minutes')
        .min(1, 'At least 1 minute')
        .max(10_080, 'At most 7 days (10080 minutes)'),
    }),
  },
  async ({ minutes }, { workspace }) => {
    await setLatenessLimit(getDb(), { workspaceId: workspace.id, seconds: minutes * 60 });
    revalidatePath('/settings');
    return { ok: true, message: `Posts may now go out up to ${minutes} minutes late.` };
  },
);

/** The workspace's own time zone: shown on the calendar beside the viewer's when they differ. */
export const setWorkspaceTimeZoneAction = workspaceAction(
  {
    name: 'setWorkspaceTimeZone',
    can: 'manageWorkspace',
    schema: z.object({
      timeZone: z
        .string()
        .trim()
        .max(64, 'At most 64 characters')
        .transform((v, ctx) => {
          const zone = canonicalTimeZone(v);
          if (!zone) ctx.addIssue({ code: 'custom', message: 'Choose an IANA time zone, e.g. Europe/Berlin' });
          return zone ?? z.NEVER;
        }),
    }),
  },
  async ({ timeZone }, { workspace }) => {
    await setWorkspaceTimeZone(getDb(), { workspaceId: workspace.id, timeZone });
    revalidatePath('/settings');
    return { ok: true, message: `Workspace time zone set to ${timeZone}.` };
  },
);

/** Whether every image needs alt text before it is uploaded (on by default: screen-reader users need it). */
export const setRequireAltTextAction = workspaceAction(
  {
    name: 'setRequireAltText',
    can: 'manageWorkspace',
    schema: z.object({ requireAltText: z.enum(['on']).optional() }),
  },
  async ({ requireAltText }, { workspace }) => {
    await setRequireAltText(getDb(), { workspaceId: workspace.id, requireAltText: requireAltText === 'on' });
    revalidatePath('/settings');
    revalidatePath('/compose');
    return {
      ok: true,
      message: requireAltText === 'on' ? 'Images now need alt text.' : 'Alt text is now optional (still encouraged).',
    };
  },
);

/** "Posts need approval": new and edited posts wait for an admin's or the client's approval before they go out. */
export const setApprovalRequiredAction = workspaceAction(
  {
    name: 'setApprovalRequired',
    can: 'manageWorkspace',
    schema: z.object({ approvalRequired: z.enum(['on']).optional() }),
  },
  async ({ approvalRequired }, { workspace, user }) => {
    await setApprovalRequired(getDb(), {
      workspaceId: workspace.id,
      approvalRequired: approvalRequired === 'on',
      actorUserId: user.id,
      apiKeyId: null,
    });
    revalidatePath('/settings');
    revalidatePath('/approvals');
    return {
      ok: true,
      message:
        approvalRequired === 'on'
          ? 'Posts now need approval: new and edited posts wait until they are approved.'
          : 'Posts no longer need approval (posts already waiting still do).',
    };
  },
);
