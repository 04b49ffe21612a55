'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { partMediaIdsField } from '@/lib/posts/compose-form';
import { editPost } from '@/lib/posts/edit';
import { editPostRequestSchema } from '@/lib/posts/schemas';
import { zonedLocalToUtc } from '@/lib/time/zoned';

const REFUSED = {
  already_publishing: 'Already publishing: your edit was not applied, so nothing is published twice.',
  already_sent: 'Already sent: your edit was not applied.',
  not_editable: 'This post was canceled; nothing to edit.',
  not_found: 'This post no longer exists.',
} as const;

export const editPostAction = workspaceAction(
  {
    name: 'editPost',
    can: 'edit',
    schema: z.object({
      postId: z.uuid(),
      text: z.string().optional(),
      /** A thread's parts (the form sends these instead of the text). */
      parts: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
      /** Each part's image ids as JSON `[[id, …], …]`, in the parts' order (sent with the parts). */
      partMediaIds: partMediaIdsField,
      localDateTime: z.string().optional(),
      timeZone: z.string().default('UTC'),
      accountIds: z
        .union([z.uuid(), z.array(z.uuid())])
        .optional()
        .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
    }),
  },
  async ({ postId, text = '', parts, partMediaIds, localDateTime, timeZone, accountIds }, { workspace, user }) => {
    let scheduledAt: string | undefined;
    if (localDateTime) {
      const converted = zonedLocalToUtc(localDateTime, timeZone);
      if (!converted.ok)
        return {
          ok: false,
          status: 422,
          errors: { localDateTime: [converted.error] },
          message: 'Please fix the highlighted fields.',
        };
      scheduledAt = converted.date.toISOString();
    }
    // A thread's parts are checked by the API's own schema (at least two, none empty), errors per part.
    const threadParts = parts
      ? editPostRequestSchema.shape.parts.safeParse(
          // The form always sends every part's images (none is `[]`), so a moved part takes its images along.
          parts.map((t, i) => ({ text: t, ...(partMediaIds ? { mediaIds: partMediaIds[i] ?? [] } : {}) })),
        )
      : undefined;
    if (threadParts && !threadParts.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of threadParts.error.issues)
        (errors[['parts', ...issue.path].join('.')] ??= []).push(issue.message);
      return { ok: false, status: 422, errors, message: 'Please fix the highlighted fields.' };
    }
    if (!parts && !text.trim())
      return {
        ok: false,
        status: 422,
        errors: { text: ['Text is required'] },
        message: 'Please fix the highlighted fields.',
      };
    if (accountIds.length === 0)
      return {
        ok: false,
        status: 422,
        errors: { accountIds: ['Choose at least one account'] },
        message: 'Please fix the highlighted fields.',
      };
    const result = await editPost(getDb(), {
      workspaceId: workspace.id,
      postId,
      changes: threadParts?.success
        ? { parts: threadParts.data, scheduledAt, accountIds }
        : { text, scheduledAt, accountIds },
      actor: `user:${user.id}`,
    });
    revalidatePath(`/posts/${postId}`);
    revalidatePath('/queue');
    revalidatePath('/approvals');
    switch (result.kind) {
      case 'ok':
        return {
          ok: true,
          message:
            result.post.status === 'awaiting_approval'
              ? 'Saved. The new version waits for approval before it is published.'
              : 'Saved. The new version is what will be published.',
        };
      case 'invalid':
        return { ok: false, status: 422, errors: result.errors, message: 'Please fix the highlighted fields.' };
      case 'conflict':
        return { ok: false, status: 409, message: REFUSED[result.reason] };
      default: // not_found (no key is used here, so never key_reused or in_flight)
        return { ok: false, status: 409, message: REFUSED.not_found };
    }
  },
);
