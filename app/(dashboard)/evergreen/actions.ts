'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import {
  addQueueItem,
  createQueue,
  deleteQueueItem,
  getItemQueue,
  getQueue,
  moveQueueItem,
  setItemSkipNext,
  setQueuePaused,
  updateQueueItem,
} from '@/db/queries/evergreen';
import { getTargetAccounts } from '@/db/queries/posts';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { checkQueueItem } from '@/lib/evergreen/items';

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

/** An item's text and its variants (separated by a blank line); each checked by checkQueueItem against its queue. */
const itemFields = {
  text: z.string().trim(),
  variants: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(/\n{2,}|\r\n\r\n/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
};

export const addItemAction = workspaceAction(
  { name: 'addEvergreenItem', can: 'compose', schema: z.object({ queueId: z.uuid(), ...itemFields }) },
  async (input, { workspace }) => {
    const db = getDb();
    const queue = await getQueue(db, { workspaceId: workspace.id, queueId: input.queueId });
    if (!queue) return { ok: false, status: 404, message: 'That queue is not in this workspace.' };
    // Refused now, not at each of its turns.
    const errors = await checkQueueItem(db, { workspaceId: workspace.id, accountIds: queue.accountIds, ...input });
    if (Object.keys(errors).length > 0) return invalidFields(errors);
    await addQueueItem(db, { workspaceId: workspace.id, ...input });
    revalidatePath(PATH);
    return { ok: true, message: 'Post added to the queue.' };
  },
);

export const editItemAction = workspaceAction(
  { name: 'editEvergreenItem', can: 'compose', schema: z.object({ itemId: z.uuid(), ...itemFields }) },
  async ({ itemId, text, variants }, { workspace }) => {
    const db = getDb();
    const queue = await getItemQueue(db, { workspaceId: workspace.id, itemId });
    if (!queue) return { ok: false, status: 404, message: 'That post is not in this workspace.' };
    const errors = await checkQueueItem(db, {
      workspaceId: workspace.id,
      accountIds: queue.accountIds,
      text,
      variants,
    });
    if (Object.keys(errors).length > 0) return invalidFields(errors);
    await updateQueueItem(db, { workspaceId: workspace.id, itemId, text, variants });
    revalidatePath(PATH);
    return { ok: true, message: 'Saved.' };
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
    schema: z.object({ itemId: z.uuid(), op: z.enum(['up', 'down', 'skip', 'unskip', 'delete']) }),
  },
  async ({ itemId, op }, { workspace }) => {
    const db = getDb();
    if (op === 'up' || op === 'down') await moveQueueItem(db, { workspaceId: workspace.id, itemId, direction: op });
    else if (op === 'delete') await deleteQueueItem(db, { workspaceId: workspace.id, itemId });
    else await setItemSkipNext(db, { workspaceId: workspace.id, itemId, skip: op === 'skip' });
    revalidatePath(PATH);
    const messages = { skip: 'Its next turn will be skipped.', delete: 'Removed from the queue.' } as const;
    return { ok: true, message: op in messages ? messages[op as keyof typeof messages] : 'Saved.' };
  },
);
