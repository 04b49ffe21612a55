'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { editPost } from '@/lib/posts/edit';
import { editPostRequestSchema } from '@/lib/posts/schemas';
import { zonedLocalToUtc } from '@/lib/time/zoned';

export type MoveResult = { postId: string; scheduledAt: string; replayed: boolean };
export type MoveActionState = ActionState<MoveResult>;

const REFUSED = {
  already_publishing: 'Already publishing — not moved: it goes out at its original time, once.',
  already_sent: 'Already sent — not moved.',
  not_editable: 'This post was canceled; there is nothing to move.',
  not_found: 'This post no longer exists.',
} as const;

const invalid = (errors: Record<string, string[]>): MoveActionState => ({
  ok: false,
  status: 422,
  errors,
  message: Object.values(errors).flat()[0] ?? 'This time cannot be used.',
});

/**
 * Reschedules a post (calendar drag-and-drop and the "Move…" dialog): a keyed edit through the same race-safe
 * use case as PATCH /api/v1/posts/:id. The key is made by the browser once per move, so a retry of that move
 * replays its answer; the move lands before the claim or is refused ("already publishing/sent"), never both.
 */
export const movePostAction = workspaceAction(
  {
    name: 'movePost',
    can: 'edit',
    schema: z.object({
      postId: z.uuid(),
      idempotencyKey: z.string().superRefine((v, ctx) => {
        const check = checkIdempotencyKey(v);
        if (!check.ok) ctx.addIssue({ code: 'custom', message: 'This move lost its key; reload the page.' });
      }),
      localDateTime: z.string(),
      timeZone: z.string().default('UTC'),
    }),
  },
  async ({ postId, idempotencyKey, localDateTime, timeZone }, { workspace, user }): Promise<MoveActionState> => {
    const converted = zonedLocalToUtc(localDateTime, timeZone);
    if (!converted.ok) return invalid({ localDateTime: [converted.error] });
    const changes = editPostRequestSchema.safeParse({ scheduledAt: converted.date.toISOString() });
    if (!changes.success) return invalid(z.flattenError(changes.error).fieldErrors as Record<string, string[]>);
    const result = await editPost(getDb(), {
      workspaceId: workspace.id,
      postId,
      changes: changes.data,
      actor: `user:${user.id}`,
      idempotencyKey,
    });
    switch (result.kind) {
      case 'ok':
        return {
          ok: true,
          data: { postId, scheduledAt: result.post.scheduledAt, replayed: result.replayed },
          message:
            result.post.status === 'draft'
              ? 'Moved. It is still a draft: nothing goes out until it is scheduled.'
              : result.post.status === 'awaiting_approval'
                ? 'Moved. It waits for approval again before it goes out.'
                : 'Moved. The post goes out at its new time.',
        };
      case 'invalid':
        return invalid(result.errors as Record<string, string[]>);
      case 'conflict':
        return { ok: false, status: 409, message: REFUSED[result.reason] };
      case 'not_found':
        return { ok: false, status: 404, message: REFUSED.not_found };
      case 'key_reused':
        return { ok: false, status: 422, message: 'This move was already used for another change; nothing changed.' };
      case 'in_flight':
        return { ok: false, status: 409, message: 'Still moving this post. Retry in a moment: it is moved once.' };
    }
  },
);
