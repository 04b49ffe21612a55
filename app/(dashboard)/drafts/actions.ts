'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { editPost } from '@/lib/posts/edit';
import { zonedLocalToUtc } from '@/lib/time/zoned';

export type ScheduleDraftResult = { postId: string; scheduledAt: string; replayed: boolean };

const REFUSED = {
  already_publishing: 'Already publishing — nothing changed.',
  already_sent: 'Already sent — nothing changed.',
  not_editable: 'This draft was discarded; there is nothing to schedule.',
} as const;

const invalid = (errors: Record<string, string[]>): ActionState<ScheduleDraftResult> => ({
  ok: false,
  status: 422,
  errors,
  message: Object.values(errors).flat()[0] ?? 'This draft cannot be scheduled like this.',
});

/**
 * Schedules a draft — at a time, or in the next free slot — through the same keyed edit as
 * PATCH /api/v1/posts/:id with `status: "scheduled"`. The browser makes the key when the form opens, so a
 * retry of the same click replays its answer and a draft is scheduled once.
 */
export const scheduleDraftAction = workspaceAction(
  {
    name: 'scheduleDraft',
    can: 'edit',
    schema: z.object({
      postId: z.uuid(),
      idempotencyKey: z.string().superRefine((v, ctx) => {
        if (!checkIdempotencyKey(v).ok)
          ctx.addIssue({ code: 'custom', message: 'This form lost its key; reload the page.' });
      }),
      when: z.enum(['later', 'queue']),
      localDateTime: z.string().optional(),
      timeZone: z.string().default('UTC'),
    }),
  },
  async (input, { workspace, user }): Promise<ActionState<ScheduleDraftResult>> => {
    let scheduledAt: string | undefined;
    if (input.when === 'later') {
      const converted = zonedLocalToUtc(input.localDateTime ?? '', input.timeZone);
      if (!converted.ok) return invalid({ localDateTime: [converted.error] });
      scheduledAt = converted.date.toISOString();
    }
    const result = await editPost(getDb(), {
      workspaceId: workspace.id,
      postId: input.postId,
      changes: scheduledAt ? { status: 'scheduled', scheduledAt } : { status: 'scheduled', slot: 'next' },
      actor: `user:${user.id}`,
      idempotencyKey: input.idempotencyKey,
    });
    revalidatePath('/drafts');
    revalidatePath(`/posts/${input.postId}`);
    switch (result.kind) {
      case 'ok':
        return {
          ok: true,
          data: { postId: input.postId, scheduledAt: result.post.scheduledAt, replayed: result.replayed },
          message: result.replayed ? 'Already scheduled — nothing was duplicated.' : 'Scheduled.',
        };
      case 'invalid':
        return invalid(result.errors);
      case 'conflict':
        return { ok: false, status: 409, message: REFUSED[result.reason] };
      case 'not_found':
        return { ok: false, status: 404, message: 'This draft no longer exists.' };
      case 'key_reused':
        return { ok: false, status: 422, message: 'This form already scheduled this draft differently; reload.' };
      case 'in_flight':
        return { ok: false, status: 409, message: 'Still scheduling. Retry in a moment: it is scheduled once.' };
    }
  },
);
