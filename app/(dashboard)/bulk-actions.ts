'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { checkIdempotencyKey } from '@/lib/idempotency/key';
import { BULK_MAX_POSTS, bulkEditPosts, type BulkChange, type BulkOutcome } from '@/lib/posts/bulk';

export type BulkActionState = ActionState<BulkOutcome[]>;

const list = (v: unknown) => (v === undefined ? [] : [v].flat());
const UNIT_MINUTES = { minutes: 1, hours: 60, days: 1440 } as const;

const bulkForm = z.preprocess(
  (v) => {
    const input = v as Record<string, unknown>;
    return { ...input, postIds: list(input.postIds), add: list(input.add), remove: list(input.remove) };
  },
  z
    .object({
      key: z.string().superRefine((v, ctx) => {
        if (!checkIdempotencyKey(v).ok)
          ctx.addIssue({ code: 'custom', message: 'This action lost its key; reload the page.' });
      }),
      postIds: z
        .array(z.uuid())
        .min(1, 'Select at least one post')
        .max(BULK_MAX_POSTS, `At most ${BULK_MAX_POSTS} posts at once`),
      kind: z.enum(['reschedule', 'queue', 'accounts', 'snippet-add', 'snippet-remove', 'cancel']),
      offset: z.coerce.number().int('A whole number').optional(),
      unit: z.enum(['minutes', 'hours', 'days']).default('hours'),
      add: z.array(z.uuid()),
      remove: z.array(z.uuid()),
      snippetId: z.string().optional(),
    })
    .superRefine((v, ctx) => {
      if (v.kind === 'reschedule' && !v.offset)
        ctx.addIssue({ code: 'custom', path: ['offset'], message: 'Move by how much? (e.g. 2, or -1)' });
      if (v.kind === 'accounts' && v.add.length + v.remove.length === 0)
        ctx.addIssue({ code: 'custom', path: ['add'], message: 'Tick accounts to add or to remove' });
      if (v.kind.startsWith('snippet') && !v.snippetId)
        ctx.addIssue({ code: 'custom', path: ['snippetId'], message: 'Choose a snippet' });
    }),
);

/**
 * The calendar's and the queue's bulk actions: each selected post gets the same keyed, race-safe edit as one post
 * (lib/posts/bulk.ts); the answer lists what changed and what was refused, and why.
 */
export const bulkEditAction = workspaceAction(
  { name: 'bulkEdit', can: 'edit', schema: bulkForm },
  async (input, { workspace, user }): Promise<BulkActionState> => {
    const change: BulkChange =
      input.kind === 'reschedule'
        ? { kind: 'reschedule', offsetMinutes: input.offset! * UNIT_MINUTES[input.unit] }
        : input.kind === 'accounts'
          ? { kind: 'accounts', add: input.add, remove: input.remove }
          : input.kind === 'snippet-add' || input.kind === 'snippet-remove'
            ? { kind: 'snippet', snippetId: input.snippetId!, op: input.kind === 'snippet-add' ? 'add' : 'remove' }
            : { kind: input.kind };
    const outcomes = await bulkEditPosts(getDb(), {
      workspaceId: workspace.id,
      postIds: input.postIds,
      change,
      actor: `user:${user.id}`,
      key: input.key,
    });
    revalidatePath('/queue');
    revalidatePath('/calendar');
    const changed = outcomes.filter((o) => o.outcome === 'changed').length;
    const refused = outcomes.filter((o) => o.outcome === 'refused').length;
    return {
      ok: true,
      data: outcomes,
      message: `${changed} changed${refused ? `, ${refused} refused` : ''}${
        outcomes.length - changed - refused ? `, ${outcomes.length - changed - refused} already as asked` : ''
      }.`,
    };
  },
);
