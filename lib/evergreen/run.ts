import type { Database } from '@/db/client';
import {
  advanceCycle,
  claimDueQueues,
  getQueueItems,
  giveBackTurn,
  postIdByKey,
  queueHasPostInFlight,
  releaseQueue,
  setTurnPost,
  skipTurn,
  takeTurn,
  type QueueItemState,
} from '@/db/queries/evergreen';
import { getTargetAccounts } from '@/db/queries/posts';
import { logger } from '@/lib/logging/logger';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { REFUSES_IDENTICAL_TEXT } from './items';

export type EvergreenOptions = {
  now?: () => Date;
  batchSize: number;
  leaseMs: number;
  /** How soon a queue that is waiting (a post on its way, an item too recent) is looked at again. */
  idleMs: number;
};

export const EVERGREEN_DEFAULTS: EvergreenOptions = { batchSize: 20, leaseMs: 60_000, idleMs: 60_000 };

export type EvergreenSummary = { queues: number; posted: number; skipped: number; waiting: number };

/** The post key of an item's turn: posts_workspace_idempotency_key_uq makes the turn's post one post. */
export const turnKey = (itemId: string, cycle: number) => `evergreen:${itemId}:${cycle}`;

/** Which of the item's texts a cycle uses on a network that refuses identical text: its text, then each variant. */
export function textForCycle(item: Pick<QueueItemState, 'text' | 'variants'>, cycle: number): string {
  const texts = [item.text, ...item.variants];
  return texts[(cycle - 1) % texts.length]!;
}

/**
 * One pass of every due evergreen queue (docs/content.md#evergreen-queues), safe with any number of schedulers at once:
 * a queue's next item gets its turn in the current cycle — one `evergreen_fires` row per (item, cycle), taken before its
 * post is made — and its post goes into the accounts' next free posting slot (slot_reservations_account_slot_uq), keyed
 * by the turn. A turn whose post was never made (its scheduler died) is finished with that same key. One post of a
 * queue is on its way at a time; an item waits `minGapDays` after its last post; "skip next" passes its turn over. An
 * item that cannot be posted (too long for a network) has its turn passed over with the reason and the queue moves on;
 * a reason that passes (no free slot, an account disconnected, the shortener down) gives the turn back: the queue waits.
 */
export async function runEvergreenQueues(db: Database, options: EvergreenOptions): Promise<EvergreenSummary> {
  const now = options.now ?? (() => new Date());
  const summary: EvergreenSummary = { queues: 0, posted: 0, skipped: 0, waiting: 0 };
  const queues = await claimDueQueues(db, { now: now(), limit: options.batchSize, leaseMs: options.leaseMs });
  for (const queue of queues) {
    summary.queues++;
    let lastError: string | null = null;
    try {
      const outcome = await nextTurn(db, queue, now());
      if (outcome.kind === 'posted') summary.posted++;
      else summary.waiting++;
      summary.skipped += outcome.skipped;
      lastError = outcome.kind === 'waiting_for' ? outcome.reason : null;
    } catch (error) {
      logger.error({ err: error, queueId: queue.id }, 'evergreen queue pass failed');
      lastError = 'The last attempt failed; it will be tried again.';
    }
    await releaseQueue(db, {
      id: queue.id,
      generation: queue.generation,
      nextRunAt: new Date(now().getTime() + options.idleMs),
      lastError,
    });
  }
  return summary;
}

type Queue = Awaited<ReturnType<typeof claimDueQueues>>[number];
/**
 * What a turn came to: its post made; nothing to do yet; waiting for a reason that passes (the turn given back); or
 * the item could not be posted (`passed_over`: its turn skipped with the reason, the queue goes on).
 */
type MadeTurn =
  | { kind: 'posted' }
  | { kind: 'waiting' }
  | { kind: 'waiting_for'; reason: string }
  | { kind: 'passed_over'; reason: string };
type TurnOutcome = Exclude<MadeTurn, { kind: 'passed_over' }> & { skipped: number };

async function nextTurn(db: Database, queue: Queue, now: Date): Promise<TurnOutcome> {
  let cycle = queue.cycle;
  let items = await getQueueItems(db, { queueId: queue.id, cycle });
  // A turn taken but never finished (its scheduler stopped between the two steps): finish it first, with its key.
  const unfinished = items.find((i) => i.turnId && !i.turnPostId && !i.turnSkipped);
  if (unfinished) {
    const made = await makePost(db, queue, unfinished, cycle, unfinished.turnId!);
    return made.kind === 'passed_over' ? { kind: 'waiting', skipped: 1 } : { ...made, skipped: 0 };
  }
  if (await queueHasPostInFlight(db, { queueId: queue.id })) return { kind: 'waiting', skipped: 0 };
  if (items.length > 0 && items.every((i) => i.turnId)) {
    await advanceCycle(db, { queueId: queue.id, from: cycle });
    cycle += 1;
    items = await getQueueItems(db, { queueId: queue.id, cycle });
  }
  let skipped = 0;
  const gapMs = queue.minGapDays * 86_400_000;
  for (const item of items.filter((i) => !i.turnId)) {
    if (item.skipNext) {
      if (await takeTurn(db, { queueId: queue.id, itemId: item.id, cycle, skipped: true })) skipped++;
      continue;
    }
    // Too recent — counted from when its last post goes out, so the next one (at a slot from now on) is a gap later.
    if (gapMs > 0 && item.lastPostAt && now.getTime() - Date.parse(item.lastPostAt) < gapMs) continue;
    const turnId = await takeTurn(db, { queueId: queue.id, itemId: item.id, cycle });
    // Another scheduler took it a moment ago: its post is on its way, this pass is done.
    if (!turnId) return { kind: 'waiting', skipped };
    const made = await makePost(db, queue, item, cycle, turnId);
    if (made.kind !== 'passed_over') return { ...made, skipped };
    skipped++; // this item cannot be posted: the next one gets the turn, in this same pass
  }
  return { kind: 'waiting', skipped };
}

async function makePost(
  db: Database,
  queue: Queue,
  item: QueueItemState,
  cycle: number,
  turnId: string,
): Promise<MadeTurn> {
  const waitFor = async (reason: string): Promise<MadeTurn> => {
    await giveBackTurn(db, { turnId });
    return { kind: 'waiting_for', reason };
  };
  const passOver = async (reason: string): Promise<MadeTurn> => {
    await skipTurn(db, { turnId, reason });
    return { kind: 'passed_over', reason };
  };
  const accounts = await getTargetAccounts(db, { workspaceId: queue.workspaceId, accountIds: queue.accountIds });
  // The queue's own accounts, not this item: every item would be refused, so the queue waits (shown on it).
  const unusable = new Set(queue.accountIds).size - accounts.filter((a) => !a.disconnectedAt).length;
  if (unusable > 0)
    return waitFor(
      `${unusable === 1 ? 'An account' : `${unusable} accounts`} of this queue ${unusable === 1 ? 'is' : 'are'} disconnected or removed: reconnect ${unusable === 1 ? 'it' : 'them'}.`,
    );
  const variantText = textForCycle(item, cycle);
  const variants = Object.fromEntries(
    accounts
      .filter((a) => REFUSES_IDENTICAL_TEXT.has(a.provider) && variantText !== item.text)
      .map((a) => [a.id, { text: variantText }]),
  );
  const key = turnKey(item.id, cycle);
  const request = createPostRequestSchema.safeParse({
    text: item.text,
    accountIds: queue.accountIds,
    slot: 'next',
    ...(Object.keys(variants).length ? { variants } : {}),
  });
  if (!request.success) return passOver(request.error.issues.map((i) => i.message).join(' '));
  const result = await createPost(db, request.data, {
    workspaceId: queue.workspaceId,
    source: 'api',
    idempotencyKey: key,
    actor: `system:evergreen:${queue.id}`,
    // The turn and its post commit together: a scheduler stopped right after finds the turn done, never to be made again.
    onCreated: async (tx, postId) => {
      if (!(await setTurnPost(tx, { turnId, postId })))
        throw new Error(`evergreen turn ${turnId} has its post already`);
    },
  });
  if (result.kind === 'ok') {
    // A replay: the post was made (and linked) by an earlier pass; a turn from before the link was atomic gets it now.
    if (result.replayed) await setTurnPost(db, { turnId, postId: result.postId });
    return { kind: 'posted' };
  }
  if (result.kind === 'key_reused') {
    // The item was edited after its turn's post was made: that post is the turn's.
    const postId = await postIdByKey(db, { workspaceId: queue.workspaceId, key });
    if (postId) await setTurnPost(db, { turnId, postId });
    return postId ? { kind: 'posted' } : { kind: 'waiting' };
  }
  if (result.kind === 'in_flight') return { kind: 'waiting' };
  if (result.kind === 'possible_duplicate')
    return passOver('The same text went to these accounts in the last 24 hours.');
  const reason = Object.values(result.errors).flat().join(' ');
  // No free slot, the shortener down: the turn is given back and the queue waits. Anything else is this item's own.
  return result.transient ? waitFor(reason) : passOver(reason);
}
