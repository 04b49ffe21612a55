'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { listQueues } from '@/db/queries/evergreen';
import { createFeed, getFeed, retryFeedItem, setFeedPaused } from '@/db/queries/feeds';
import { getTemplate } from '@/db/queries/library';
import { getTargetAccounts } from '@/db/queries/posts';
import { FEED_MODES } from '@/db/schema';
import { invalidFields, workspaceAction } from '@/lib/auth/action';
import { FEED_POLL_DEFAULTS, pollFeeds } from '@/lib/feeds/poll';
import { baseUrlRefusal } from '@/lib/net/outbound-guard';

const PATH = '/feeds';

const feedForm = z.preprocess(
  (v) => {
    const input = v as Record<string, unknown>;
    return {
      ...input,
      accountIds: input.accountIds === undefined ? [] : [input.accountIds].flat(),
      templateId: input.templateId || undefined,
      evergreenQueueId: input.evergreenQueueId || undefined,
    };
  },
  z
    .object({
      name: z.string().trim().min(1, 'A name is required').max(60),
      url: z
        .string()
        .trim()
        .max(2000)
        .refine((u) => /^https?:\/\//i.test(u), 'An http:// or https:// URL'),
      accountIds: z.array(z.uuid()).max(50).default([]),
      templateId: z.uuid().optional(),
      mode: z.enum(FEED_MODES),
      evergreenQueueId: z.uuid().optional(),
      pollMinutes: z.coerce.number().int().min(5, 'At least 5 minutes').max(10_080).default(60),
    })
    .superRefine((v, ctx) => {
      // A feed URL may carry a query (?format=rss); only credentials and fragments are refused.
      const problem = baseUrlRefusal(v.url.split('?')[0]!);
      if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: `The URL ${problem}` });
      if (v.mode === 'queue' && !v.evergreenQueueId)
        ctx.addIssue({ code: 'custom', path: ['evergreenQueueId'], message: 'Choose the evergreen queue' });
      if (v.mode !== 'queue' && v.accountIds.length === 0)
        ctx.addIssue({ code: 'custom', path: ['accountIds'], message: 'Choose at least one account' });
    }),
);

export const createFeedAction = workspaceAction(
  { name: 'createFeed', can: 'compose', schema: feedForm },
  async (input, { workspace }) => {
    const db = getDb();
    const accounts = await getTargetAccounts(db, { workspaceId: workspace.id, accountIds: input.accountIds });
    if (accounts.length !== new Set(input.accountIds).size)
      return invalidFields({ accountIds: ['One or more accounts do not exist in this workspace'] });
    if (input.templateId && !(await getTemplate(db, { workspaceId: workspace.id, id: input.templateId })))
      return invalidFields({ templateId: ['No such template'] });
    const queue =
      input.mode === 'queue'
        ? (await listQueues(db, { workspaceId: workspace.id })).find((q) => q.id === input.evergreenQueueId)
        : undefined;
    if (input.mode === 'queue' && !queue) return invalidFields({ evergreenQueueId: ['No such queue'] });
    const feed = await createFeed(db, {
      workspaceId: workspace.id,
      name: input.name,
      url: input.url,
      accountIds: queue ? queue.accountIds : input.accountIds,
      templateId: input.templateId ?? null,
      mode: input.mode,
      evergreenQueueId: queue?.id ?? null,
      pollMinutes: input.pollMinutes,
    });
    if (!feed) return invalidFields({ url: ['This feed is already added'] });
    revalidatePath(PATH);
    return { ok: true, message: `Feed “${input.name}” added: it is read within a minute (or use Check now).` };
  },
);

/** "Check now": this feed's poll, at once (the same pass as the job's, so the same guards). */
export const checkFeedAction = workspaceAction(
  { name: 'checkFeed', can: 'compose', schema: z.object({ feedId: z.uuid() }) },
  async ({ feedId }, { workspace }) => {
    const db = getDb();
    if (!(await getFeed(db, { workspaceId: workspace.id, id: feedId })))
      return { ok: false, status: 404, message: 'No such feed.' };
    const summary = await pollFeeds(db, { ...FEED_POLL_DEFAULTS, ids: [feedId] });
    revalidatePath(PATH);
    revalidatePath('/drafts');
    if (summary.feeds === 0) return { ok: true, message: 'Being read right now by the scheduler.' };
    if (summary.failed > 0) return { ok: false, status: 422, message: 'The feed could not be read: see its error.' };
    return {
      ok: true,
      message:
        summary.notModified > 0
          ? 'Not changed since the last check.'
          : `${summary.newItems} new item${summary.newItems === 1 ? '' : 's'}.`,
    };
  },
);

export const pauseFeedAction = workspaceAction(
  {
    name: 'pauseFeed',
    can: 'compose',
    schema: z.object({ feedId: z.uuid(), paused: z.enum(['true', 'false']).transform((v) => v === 'true') }),
  },
  async ({ feedId, paused }, { workspace }) => {
    await setFeedPaused(getDb(), { workspaceId: workspace.id, id: feedId, paused });
    revalidatePath(PATH);
    return { ok: true, message: paused ? 'Feed paused.' : 'Feed resumed.' };
  },
);

/** "Retry" beside an item refused for good: unfinished again, and the feed is read at once (its item first). */
export const retryFeedItemAction = workspaceAction(
  { name: 'retryFeedItem', can: 'compose', schema: z.object({ itemId: z.uuid() }) },
  async ({ itemId }, { workspace }) => {
    const db = getDb();
    const feedId = await retryFeedItem(db, { workspaceId: workspace.id, id: itemId });
    if (!feedId) return { ok: false, status: 404, message: 'No such item waiting for a retry.' };
    const summary = await pollFeeds(db, { ...FEED_POLL_DEFAULTS, ids: [feedId] });
    revalidatePath(PATH);
    revalidatePath('/drafts');
    return {
      ok: true,
      message: summary.feeds === 0 ? 'It is tried again at the feed’s next read.' : 'Tried again: see the item.',
    };
  },
);
