'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { addQueueItem, createQueue, moveQueueItem, setItemSkipNext, setQueuePaused } from '@/db/queries/evergreen';
import { getTargetAccounts } from '@/db/queries/posts';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { postTextSchema } from '@/lib/posts/schemas';

const PATH = '/evergreen';

const queueForm = z.preprocess(
  (v) => {
    const input = v as Record<string, unknown>;
    return { ...input, accountIds: input.accountIds === undefined ? [] : [input.accountIds].flat() };
  },
  z.object({
    name: z.string().trim().min(1, 'A name is required').max(60),
    accountIds: z.array(z.uuid()).min(1, 'Choose at least one account').max(50),
    minGapDays: z.coerce.number().int('Whole days').min(0).max(365).default(7),
  }),
);

export const createQueueAction = workspaceAction(
  { name: 'createEvergreenQueue', can: 'compose', schema: queueForm },
  async (input, { workspace }) => {
    const db = getDb();
    const accounts = await getTargetAccounts(db, { workspaceId: workspace.id, accountIds: input.accountIds });
    if (accounts.length !== new Set(input.accountIds).size)
      return invalidFields({ accountIds: ['One or more accounts do not exist in this workspace'] });
    const queue = await createQueue(db, { workspaceId: workspace.id, ...input });
    if (!queue) return invalidFields({ name: ['A queue with this name exists'] });
    revalidatePath(PATH);
    return { ok: true, message: `Queue “${input.name}” added. Add its posts below.` };
  },
);

export const addItemAction = workspaceAction(
  {
    name: 'addEvergreenItem',
    can: 'compose',
    schema: z.object({
      queueId: z.uuid(),
      text: postTextSchema,
      variants: z
        .string()
        .optional()
        .transform((v) =>
          (v ?? '')
            .split(/\n{2,}|\r\n\r\n/)
            .map((t) => t.trim())
            .filter(Boolean),
        ),
    }),
  },
  async (input, { workspace }) => {
    const id = await addQueueItem(getDb(), { workspaceId: workspace.id, ...input });
    if (!id) return { ok: false, status: 404, message: 'That queue is not in this workspace.' };
    revalidatePath(PATH);
    return { ok: true, message: 'Post added to the queue.' };
  },
);

export const setPausedAction = workspaceAction(
  {
    name: 'pauseEvergreenQueue',
    can: 'compose',
    schema: z.object({ queueId: z.uuid(), paused: z.enum(['true', 'false']).transform((v) => v === 'true') }),
  },
  async ({ queueId, paused }, { workspace }) => {
    await setQueuePaused(getDb(), { workspaceId: workspace.id, queueId, paused });
    revalidatePath(PATH);
    return { ok: true, message: paused ? 'Queue paused.' : 'Queue resumed.' };
  },
);

export const itemAction = workspaceAction(
  {
    name: 'evergreenItem',
    can: 'compose',
    schema: z.object({ itemId: z.uuid(), op: z.enum(['up', 'down', 'skip', 'unskip']) }),
  },
  async ({ itemId, op }, { workspace }) => {
    const db = getDb();
    if (op === 'up' || op === 'down') await moveQueueItem(db, { workspaceId: workspace.id, itemId, direction: op });
    else await setItemSkipNext(db, { workspaceId: workspace.id, itemId, skip: op === 'skip' });
    revalidatePath(PATH);
    return { ok: true, message: op === 'skip' ? 'Its next turn will be skipped.' : 'Saved.' };
  },
);
