'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { requestIdOf } from '@/lib/http/request-id';
import { composeFormSchema, submitComposeForm, type ComposeResult } from '@/lib/posts/compose-form';

export type ComposeActionState = ActionState<ComposeResult>;

const MESSAGES = {
  mismatch:
    'This form already scheduled a different post. Your changes were not saved — start a new post to schedule them.',
  in_flight: 'Still scheduling your post. Retry in a moment: it will not be duplicated.',
  possible_duplicate: 'The same text went to this account in the last 24 hours. Schedule anyway?',
  invalid: 'Please fix the highlighted fields.',
} as const;

export const createPostAction = workspaceAction(
  { name: 'createPost', can: 'compose', schema: composeFormSchema },
  async (form, { workspace, user }): Promise<ComposeActionState> => {
    const result = await submitComposeForm(getDb(), form, {
      workspaceId: workspace.id,
      userId: user.id,
      requestId: requestIdOf(await headers()),
    });
    if (result.ok) {
      revalidatePath('/queue');
      revalidatePath('/drafts');
      revalidatePath('/approvals');
      const message =
        result.status === 'draft'
          ? result.replayed
            ? 'Draft already saved — nothing was duplicated'
            : 'Draft saved. It is not published until you schedule it.'
          : result.status === 'awaiting_approval'
            ? 'Sent for approval'
            : result.replayed
              ? 'Already scheduled — nothing was duplicated'
              : form.when === 'queue'
                ? 'Scheduled in the next free slot'
                : 'Scheduled';
      return { ok: true, data: result, message };
    }
    return {
      ok: false,
      data: result,
      errors: result.kind === 'invalid' ? result.errors : undefined,
      message: result.kind === 'invalid' && result.errors.slot ? result.errors.slot[0] : MESSAGES[result.kind],
    };
  },
);
