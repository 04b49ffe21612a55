import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { evergreenItems, evergreenQueues } from '../schema';
import { rows } from './deliveries/rows';
import { claimLeasedRows } from './leased-rows';

// Evergreen queues (docs/content.md#evergreen-queues). The guard is evergreen_fires_item_cycle_uq: an item's turn in a
// cycle is one row, taken before its post is made; the queue's lease only keeps two schedulers from doing the same
// reads at once.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Due, unpaused queues under no live lease (the shared claim, db/queries/leased-rows.ts). */
export async function claimDueQueues(db: Executor, params: { now: Date; limit: number; leaseMs: number }) {
  return (await claimLeasedRows(db, 'evergreen_queues', params)).map((r) => ({
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    accountIds: r.account_ids as string[],
    minGapDays: r.min_gap_days as number,
    cycle: r.cycle as number,
    generation: r.generation as number,
  }));
}

/** Ends a claim (fenced by its generation): when to look again, and why the last turn could not be made. */
export async function releaseQueue(
  db: Executor,
  params: { id: string; generation: number; nextRunAt: Date; lastError: string | null },
) {
  await db.execute(sql`
    update evergreen_queues set lease_expires_at = null, next_run_at = ${at(params.nextRunAt)}, last_error = ${params.lastError}
    where id = ${params.id} and generation = ${params.generation}`);
}

export type QueueItemState = {
  id: string;
  position: number;
  text: string;
  variants: string[];
  skipNext: boolean;
  /** This item's turn in the queue's cycle, if taken. */
  turnId: string | null;
  turnPostId: string | null;
  turnSkipped: boolean;
  /**
   * When its last post was scheduled to go out (its slot; a turn without its post: when the turn was taken), in any
   * cycle; a skipped turn does not count. The minimum gap counts from it.
   */
  lastPostAt: string | null;
};

/** When an item's (`i`) last post goes out: its slot, not when its turn was taken (the post may wait days for it). */
const lastPostAt = sql`(select max(coalesce(p.scheduled_at, l.fired_at)) from evergreen_fires l
  left join posts p on p.id = l.post_id where l.item_id = i.id and not l.skipped)`;

/** The queue's items in order, each with its turn in `cycle` and its last post's time. */
export async function getQueueItems(db: Executor, params: { queueId: string; cycle: number }) {
  const result = await db.execute(sql`
    select i.id, i.position, i.text, i.variants, i.skip_next as "skipNext",
      f.id as "turnId", f.post_id as "turnPostId", coalesce(f.skipped, false) as "turnSkipped",
      ${lastPostAt} as "lastPostAt"
    from evergreen_items i
    left join evergreen_fires f on f.item_id = i.id and f.cycle = ${params.cycle}
    where i.queue_id = ${params.queueId}
    order by i.position, i.created_at`);
  return rows<QueueItemState>(result);
}

/**
 * Whether a post of this queue is still on its way (a delivery not settled yet): the next turn waits for it, so the
 * queue fills one posting slot at a time.
 */
export async function queueHasPostInFlight(db: Executor, params: { queueId: string }) {
  const result = await db.execute(sql`
    select exists (
      select 1 from evergreen_fires f join deliveries d on d.post_id = f.post_id
      where f.queue_id = ${params.queueId}
        and d.status in ('scheduled', 'publishing', 'ambiguous', 'awaiting_approval', 'draft')
    ) as busy`);
  return rows<{ busy: boolean }>(result)[0]!.busy;
}

/**
 * Takes an item's turn in a cycle: one row per (item, cycle) — false when another scheduler (or an earlier pass) has
 * it. A skipped turn also clears the item's "skip next", in the same statement.
 */
export async function takeTurn(
  db: Executor,
  params: { queueId: string; itemId: string; cycle: number; skipped?: boolean },
): Promise<string | null> {
  const result = await db.execute(sql`
    with taken as (
      insert into evergreen_fires (queue_id, item_id, cycle, skipped)
      values (${params.queueId}, ${params.itemId}, ${params.cycle}, ${params.skipped ?? false})
      on conflict (item_id, cycle) do nothing
      returning id
    ), cleared as (
      update evergreen_items set skip_next = false
      where id = ${params.itemId} and ${params.skipped ?? false} and exists (select 1 from taken)
    )
    select id from taken`);
  return rows<{ id: string }>(result)[0]?.id ?? null;
}

/**
 * Links a turn to its post — in the post's own transaction (createPost's onCreated), so the two commit together. Only a
 * turn without a post: false when it has one already (the caller rolls its post back).
 */
export async function setTurnPost(db: Executor, params: { turnId: string; postId: string }) {
  const result = await db.execute(
    sql`update evergreen_fires set post_id = ${params.postId} where id = ${params.turnId} and post_id is null returning id`,
  );
  return rows<{ id: string }>(result).length === 1;
}

/**
 * A turn whose item cannot be posted (its text too long for a network, a variant not a post): passed over with the
 * reason, so the queue moves on; editing the item gives it back (updateQueueItem).
 */
export async function skipTurn(db: Executor, params: { turnId: string; reason: string }) {
  await db.execute(sql`
    update evergreen_fires set skipped = true, skip_reason = ${params.reason.slice(0, 1000)}
    where id = ${params.turnId} and post_id is null`);
}

/** A turn whose post could not be made for now (no free slot): given back, so a later pass takes it again. */
export async function giveBackTurn(db: Executor, params: { turnId: string }) {
  await db.execute(sql`delete from evergreen_fires where id = ${params.turnId} and post_id is null and not skipped`);
}

/** The next cycle, once every item had its turn: a compare-and-set, so two schedulers advance it once. */
export async function advanceCycle(db: Executor, params: { queueId: string; from: number }) {
  const result = await db.execute(sql`
    update evergreen_queues set cycle = cycle + 1 where id = ${params.queueId} and cycle = ${params.from} returning cycle`);
  return rows<{ cycle: number }>(result).length === 1;
}

/** The post made under a key (a turn finished after a restart finds the post its first attempt made). */
export async function postIdByKey(db: Executor, params: { workspaceId: string; key: string }) {
  const result = await db.execute(sql`
    select id from posts where workspace_id = ${params.workspaceId} and idempotency_key = ${params.key}`);
  return rows<{ id: string }>(result)[0]?.id ?? null;
}

// The queue page's reads and edits, scoped by workspace.

export async function listQueues(db: Executor, params: { workspaceId: string }) {
  return db
    .select()
    .from(evergreenQueues)
    .where(eq(evergreenQueues.workspaceId, params.workspaceId))
    .orderBy(asc(evergreenQueues.name));
}

export async function listQueueItemsWithCounts(db: Executor, params: { workspaceId: string; queueIds: string[] }) {
  if (params.queueIds.length === 0) return [];
  const result = await db.execute(sql`
    select i.id, i.queue_id as "queueId", i.position, i.text, i.variants, i.skip_next as "skipNext",
      (select count(*)::int from evergreen_fires f where f.item_id = i.id and not f.skipped and f.post_id is not null) as "posts",
      ${lastPostAt} as "lastPostAt",
      exists (select 1 from evergreen_fires f join evergreen_queues q on q.id = i.queue_id
        where f.item_id = i.id and f.cycle = q.cycle) as "doneThisCycle",
      (select f.skip_reason from evergreen_fires f where f.item_id = i.id order by f.cycle desc limit 1) as "refusal"
    from evergreen_items i
    where i.workspace_id = ${params.workspaceId} and i.queue_id = any(${sql.param(params.queueIds)}::uuid[])
    order by i.position, i.created_at`);
  return rows<{
    id: string;
    queueId: string;
    position: number;
    text: string;
    variants: string[];
    skipNext: boolean;
    posts: number;
    lastPostAt: string | null;
    doneThisCycle: boolean;
    /** Why its latest turn was passed over (it could not be posted), if it was. */
    refusal: string | null;
  }>(result);
}

/** One of the workspace's queues, or null. */
export async function getQueue(db: Executor, params: { workspaceId: string; queueId: string }) {
  const [row] = await db
    .select()
    .from(evergreenQueues)
    .where(and(eq(evergreenQueues.workspaceId, params.workspaceId), eq(evergreenQueues.id, params.queueId)));
  return row ?? null;
}

/** The queue an item of the workspace is in, or null. */
export async function getItemQueue(db: Executor, params: { workspaceId: string; itemId: string }) {
  const [row] = await db
    .select({ queue: evergreenQueues })
    .from(evergreenItems)
    .innerJoin(evergreenQueues, eq(evergreenQueues.id, evergreenItems.queueId))
    .where(and(eq(evergreenItems.workspaceId, params.workspaceId), eq(evergreenItems.id, params.itemId)));
  return row?.queue ?? null;
}

/**
 * An item's new text and variants. A turn of the current cycle that was passed over because the item could not be
 * posted is given back in the same statement: the edited item gets its turn again in this cycle. False: no such item.
 */
export async function updateQueueItem(
  db: Executor,
  params: { workspaceId: string; itemId: string; text: string; variants: string[] },
) {
  const result = await db.execute(sql`
    with updated as (
      update evergreen_items set text = ${params.text}, variants = ${sql.param(params.variants)}::text[]
      where id = ${params.itemId} and workspace_id = ${params.workspaceId}
      returning id, queue_id
    ), given_back as (
      delete from evergreen_fires f using updated u, evergreen_queues q
      where f.item_id = u.id and q.id = u.queue_id and f.cycle = q.cycle and f.skip_reason is not null
    )
    select id from updated`);
  return rows<{ id: string }>(result).length === 1;
}

/** Removes an item from its queue (its turns go with it; posts already made stay). False: no such item. */
export async function deleteQueueItem(db: Executor, params: { workspaceId: string; itemId: string }) {
  const deleted = await db
    .delete(evergreenItems)
    .where(and(eq(evergreenItems.workspaceId, params.workspaceId), eq(evergreenItems.id, params.itemId)))
    .returning({ id: evergreenItems.id });
  return deleted.length === 1;
}

/** A new queue, or null when its name is taken in the workspace (`evergreen_queues_workspace_name_uq`). */
export async function createQueue(
  db: Executor,
  params: { workspaceId: string; name: string; accountIds: string[]; minGapDays: number },
) {
  const [row] = await db.insert(evergreenQueues).values(params).onConflictDoNothing().returning();
  return row ?? null;
}

/** Adds an item at the end of its queue (the queue must be the workspace's). */
export async function addQueueItem(
  db: Executor,
  params: { workspaceId: string; queueId: string; text: string; variants: string[]; id?: string },
) {
  // An id given by the caller (a feed item's) makes the add idempotent: the same id again adds nothing.
  const result = await db.execute(sql`
    insert into evergreen_items (id, queue_id, workspace_id, position, text, variants)
    select coalesce(${params.id ?? null}::uuid, gen_random_uuid()), q.id, q.workspace_id,
      coalesce((select max(position) + 1 from evergreen_items where queue_id = q.id), 0),
      ${params.text}, ${sql.param(params.variants)}::text[]
    from evergreen_queues q where q.id = ${params.queueId} and q.workspace_id = ${params.workspaceId}
    on conflict (id) do nothing
    returning id`);
  return rows<{ id: string }>(result)[0]?.id ?? params.id ?? null;
}

export async function setQueuePaused(db: Executor, params: { workspaceId: string; queueId: string; paused: boolean }) {
  await db
    .update(evergreenQueues)
    .set({ paused: params.paused, nextRunAt: new Date() })
    .where(and(eq(evergreenQueues.workspaceId, params.workspaceId), eq(evergreenQueues.id, params.queueId)));
}

export async function setItemSkipNext(db: Executor, params: { workspaceId: string; itemId: string; skip: boolean }) {
  await db
    .update(evergreenItems)
    .set({ skipNext: params.skip })
    .where(and(eq(evergreenItems.workspaceId, params.workspaceId), eq(evergreenItems.id, params.itemId)));
}

/** Moves an item one place up or down in its queue: it swaps positions with its neighbour, in one statement. */
export async function moveQueueItem(
  db: Executor,
  params: { workspaceId: string; itemId: string; direction: 'up' | 'down' },
) {
  const up = params.direction === 'up';
  await db.execute(sql`
    with me as (
      select id, queue_id, position from evergreen_items where id = ${params.itemId} and workspace_id = ${params.workspaceId}
      for update
    ), other as (
      select o.id, o.position from evergreen_items o, me
      where o.queue_id = me.queue_id and o.id <> me.id
        and (case when ${up} then o.position < me.position else o.position > me.position end)
      order by case when ${up} then -o.position else o.position end
      limit 1
      for update of o
    )
    update evergreen_items t set position = case when t.id = me.id then other.position else me.position end
    from me, other where t.id in (me.id, other.id)`);
}
