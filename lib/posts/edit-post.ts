import { z } from 'zod';
import type { Database, Transaction } from '@/db/client';
import { addDeliveries, applyEditToDeliveries, lockDeliveriesForEdit } from '@/db/queries/deliveries';
import { getPostWithDeliveries, getTargetAccounts, updatePostContent } from '@/db/queries/posts';
import { notifyDue } from '@/db/queries/publishing';
import { characterCount, postTextSchema, TEXT_LIMITS, withinTwoYears } from './post-input';
import { serializePost, type SerializedPost } from './serialize';

export const editPostRequestSchema = z
  .object({
    text: postTextSchema.optional(),
    scheduledAt: z.iso.datetime({ offset: true, message: 'Must be an ISO-8601 date-time with a time zone' }).refine(withinTwoYears, 'Must be within two years from now').optional(),
    accountIds: z.array(z.uuid()).min(1, 'Choose at least one account').max(50).optional(),
  })
  .strict()
  .refine((v) => v.text !== undefined || v.scheduledAt !== undefined || v.accountIds !== undefined, 'Nothing to change');
export type EditPostRequest = z.output<typeof editPostRequestSchema>;

export type EditResult =
  | { ok: true; post: SerializedPost }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'invalid'; errors: Record<string, string[]> }
  | { ok: false; reason: 'already_publishing' | 'already_sent' | 'not_editable'; deliveries: { id: string; accountId: string; status: string }[] };

/**
 * Edits a scheduled post only while none of its deliveries is claimed or settled: the deliveries are
 * locked first, so an edit racing the publisher either lands before the claim (the new text is what
 * gets published) or is refused after it (the old text was already claimed) — never both.
 */
export async function editScheduledPost(
  db: Database,
  params: { workspaceId: string; postId: string; changes: EditPostRequest; actor: string; now?: Date },
): Promise<EditResult> {
  return db.transaction((tx) => editScheduledPostInTransaction(tx, params));
}

export async function editScheduledPostInTransaction(
  tx: Transaction,
  params: { workspaceId: string; postId: string; changes: EditPostRequest; actor: string; now?: Date },
): Promise<EditResult> {
  {
    const locked = await lockDeliveriesForEdit(tx, params);
    if (locked.length === 0) return { ok: false, reason: 'not_found' } as const;
    const live = locked.filter((d) => d.status !== 'canceled');
    // An earlier attempt whose outcome was unknown may still surface on the platform: reconciliation
    // matches on the text, so the text must not change under it.
    const blocked = live.filter((d) => d.status !== 'scheduled' || d.claimed || d.mayBeLive);
    if (live.length === 0 || blocked.length > 0) {
      const reason = live.length === 0 ? 'not_editable' : blocked.some((d) => d.status === 'publishing' || d.claimed || d.mayBeLive) ? 'already_publishing' : 'already_sent';
      return { ok: false, reason, deliveries: locked.map((d) => ({ id: d.id, accountId: d.accountId, status: d.claimed && d.status === 'scheduled' ? 'publishing' : d.status })) } as const;
    }
    const current = (await getPostWithDeliveries(tx, params))!;
    const text = params.changes.text ?? current.post.text;
    const scheduledAt = params.changes.scheduledAt ? new Date(params.changes.scheduledAt) : current.post.scheduledAt;
    const targetIds = [...new Set(params.changes.accountIds ?? live.map((d) => d.accountId))];

    const errors: Record<string, string[]> = {};
    const accounts = await getTargetAccounts(tx, { workspaceId: params.workspaceId, accountIds: targetIds });
    const usable = accounts.filter((a) => !a.disconnectedAt);
    if (usable.length !== targetIds.length) errors.accountIds = ['One or more accounts do not exist in this workspace or are disconnected'];
    const reAdded = targetIds.filter((id) => locked.some((d) => d.accountId === id && d.status === 'canceled'));
    if (reAdded.length) errors.accountIds = ['An account removed from this post cannot be added back; create a new post for it'];
    for (const a of usable) {
      if (characterCount(text) > TEXT_LIMITS[a.provider]) (errors.text ??= []).push(`Too long for ${a.handle} (${TEXT_LIMITS[a.provider]} characters)`);
    }
    if (params.changes.scheduledAt && scheduledAt.getTime() < (params.now ?? new Date()).getTime() - 60_000) errors.scheduledAt = ['The time is in the past'];
    if (Object.keys(errors).length) return { ok: false, reason: 'invalid', errors } as const;

    await updatePostContent(tx, { workspaceId: params.workspaceId, postId: params.postId, text, scheduledAt });
    await applyEditToDeliveries(tx, {
      workspaceId: params.workspaceId, postId: params.postId, dueAt: scheduledAt, actor: params.actor,
      keep: live.filter((d) => targetIds.includes(d.accountId)).map((d) => d.id),
      remove: live.filter((d) => !targetIds.includes(d.accountId)).map((d) => d.id),
    });
    await addDeliveries(tx, {
      workspaceId: params.workspaceId, postId: params.postId, dueAt: scheduledAt, actor: params.actor,
      accountIds: targetIds.filter((id) => !locked.some((d) => d.accountId === id)), reason: 'account added by an edit',
    });
    await notifyDue(tx);
    const after = (await getPostWithDeliveries(tx, params))!;
    return { ok: true, post: serializePost(after.post, after.deliveries) } as const;
  }
}
