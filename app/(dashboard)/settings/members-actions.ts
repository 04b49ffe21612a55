'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { deliverDueNotifications } from '@/lib/notifications/send';
import { inviteMember, resendInvitation, revokeInvitationAudited } from '@/lib/teams/invitations';
import { changeMemberRoleAudited, removeMemberAudited } from '@/lib/teams/members';

const role = z.enum(['admin', 'manager', 'viewer'], { error: 'Choose a role' });

/** Sends the invitation email now rather than at the sender's next pass; a failure is retried by that pass. */
async function sendNow(sendId: string) {
  try {
    await deliverDueNotifications(getDb(), { sendIds: [sendId] });
  } catch (error) {
    logger.warn({ sendId, error: error instanceof Error ? error.message : String(error) }, 'invitation send deferred');
  }
}

export const inviteMemberAction = workspaceAction(
  {
    name: 'inviteMember',
    can: 'manageMembers',
    schema: z.object({
      email: z.string().trim().toLowerCase().max(254, 'At most 254 characters').pipe(z.email('Enter an email address')),
      role,
    }),
  },
  async ({ email, role }, { workspace, user }) => {
    const result = await inviteMember(getDb(), {
      workspaceId: workspace.id,
      actorUserId: user.id,
      email,
      role,
      key: getEnv().APP_ENCRYPTION_KEY,
    });
    if (!result.ok) {
      const message =
        result.reason === 'member'
          ? 'Already a member of this workspace.'
          : 'Already invited: resend that invitation below.';
      return { ok: false, status: 409, errors: { email: [message] }, message: 'Please fix the highlighted fields.' };
    }
    await sendNow(result.sendId);
    revalidatePath('/settings');
    return { ok: true, message: `Invitation sent to ${email}.` };
  },
);

export const resendInvitationAction = workspaceAction(
  { name: 'resendInvitation', can: 'manageMembers', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace, user }) => {
    const resent = await resendInvitation(getDb(), {
      workspaceId: workspace.id,
      actorUserId: user.id,
      id,
      key: getEnv().APP_ENCRYPTION_KEY,
    });
    if (!resent) return { ok: false, status: 404, message: 'That invitation is no longer open.' };
    await sendNow(resent.sendId);
    revalidatePath('/settings');
    return { ok: true, message: 'Invitation sent again with a new link; the old link no longer works.' };
  },
);

export const revokeInvitationAction = workspaceAction(
  { name: 'revokeInvitation', can: 'manageMembers', schema: z.object({ id: z.uuid() }) },
  async ({ id }, { workspace, user }) => {
    const revoked = await revokeInvitationAudited(getDb(), { workspaceId: workspace.id, actorUserId: user.id, id });
    revalidatePath('/settings');
    return revoked
      ? { ok: true, message: 'Invitation revoked: its link no longer works.' }
      : { ok: false, status: 404, message: 'That invitation is no longer open.' };
  },
);

export const changeMemberRoleAction = workspaceAction(
  {
    name: 'changeMemberRole',
    can: 'manageMembers',
    schema: z.object({ userId: z.uuid(), role }),
  },
  async ({ userId, role }, { workspace, user }) => {
    const changed = await changeMemberRoleAudited(getDb(), {
      workspaceId: workspace.id,
      actorUserId: user.id,
      userId,
      role,
    });
    revalidatePath('/settings');
    return changed
      ? { ok: true, message: `Role set to ${role}.` }
      : { ok: false, status: 409, message: 'Not changed: a workspace keeps at least one admin.' };
  },
);

export const removeMemberAction = workspaceAction(
  { name: 'removeMember', can: 'manageMembers', schema: z.object({ userId: z.uuid() }) },
  async ({ userId }, { workspace, user }) => {
    const result = await removeMemberAudited(getDb(), { workspaceId: workspace.id, actorUserId: user.id, userId });
    revalidatePath('/settings');
    if (result.ok) return { ok: true, message: 'Member removed.' };
    return result.reason === 'last_admin'
      ? { ok: false, status: 409, message: 'Not removed: a workspace keeps at least one admin.' }
      : { ok: false, status: 404, message: 'Not a member of this workspace.' };
  },
);

/** Any member may leave; the last admin may not (promote someone first). */
export const leaveWorkspaceAction = workspaceAction(
  { name: 'leaveWorkspace', can: 'read', schema: z.object({}) },
  async (_input, { workspace, user }) => {
    const result = await removeMemberAudited(getDb(), {
      workspaceId: workspace.id,
      actorUserId: user.id,
      userId: user.id,
    });
    if (!result.ok)
      return {
        ok: false,
        status: 409,
        message: 'You are the last admin: make another member admin before you leave.',
      };
    revalidatePath('/', 'layout');
    redirect('/queue');
  },
);
