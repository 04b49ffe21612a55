'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { revokeApprovalLink } from '@/db/queries/approvals';
import { decideApproval, MAX_COMMENT } from '@/lib/approvals/decide';
import { createApprovalLink, createWeekApprovalLink } from '@/lib/approvals/links';
import { decisionMessage } from '@/lib/approvals/messages';
import { workspaceAction } from '@/lib/auth/action';

/** An admin's Approve / Request changes, on the Approvals list or the post page (one decision per revision). */
export const decidePostAction = workspaceAction(
  {
    name: 'decidePost',
    can: 'approve',
    schema: z.object({
      postId: z.uuid(),
      decision: z.enum(['approved', 'changes_requested']),
      comment: z.string().max(MAX_COMMENT, `At most ${MAX_COMMENT} characters`).optional(),
      revision: z.coerce.number().int().min(1),
    }),
  },
  async ({ postId, decision, comment, revision }, { workspace, user }) => {
    const result = await decideApproval(getDb(), {
      workspaceId: workspace.id,
      postId,
      decision,
      comment,
      revision,
      decider: { kind: 'user', userId: user.id, name: user.name || user.email },
    });
    revalidatePath('/approvals');
    revalidatePath(`/posts/${postId}`);
    const { ok, message } = decisionMessage(result);
    if (result.kind === 'invalid') return { ok: false, status: 422, errors: result.errors, message };
    return { ok, status: ok ? undefined : result.kind === 'not_found' ? 404 : 409, message };
  },
);

/** A client link for one post, or for everything pending in the next 7 days; the URL is shown once. */
export const createApprovalLinkAction = workspaceAction(
  {
    name: 'createApprovalLink',
    can: 'approve',
    schema: z.object({ postId: z.uuid().optional(), scope: z.enum(['post', 'week']) }),
  },
  async ({ postId, scope }, { workspace, user }) => {
    const db = getDb();
    const link =
      scope === 'week'
        ? await createWeekApprovalLink(db, { workspaceId: workspace.id, userId: user.id })
        : postId
          ? await createApprovalLink(db, {
              workspaceId: workspace.id,
              userId: user.id,
              postIds: [postId],
              label: 'One post',
            })
          : null;
    if (!link) return { ok: false, status: 422, message: 'Nothing is waiting for approval in the next 7 days.' };
    revalidatePath('/approvals');
    // The browser adds its own origin (the one the admin reached the app at).
    return {
      ok: true,
      message: 'Link created: send it to your client. It is shown only now.',
      data: { path: `/approve/${link.token}` },
    };
  },
);

export const revokeApprovalLinkAction = workspaceAction(
  { name: 'revokeApprovalLink', can: 'approve', schema: z.object({ linkId: z.uuid() }) },
  async ({ linkId }, { workspace }) => {
    const found = await revokeApprovalLink(getDb(), { workspaceId: workspace.id, id: linkId });
    revalidatePath('/approvals');
    return found ? { ok: true, message: 'Link revoked.' } : { ok: false, status: 404, message: 'No such link.' };
  },
);
