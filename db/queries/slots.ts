import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { postingSchedules, slotReservations, socialAccounts } from '../schema';
import { jsonb } from './sql-params';

type Slot = { weekday: string; time: string };

/** One account's posting schedule (null: none set yet), workspace-scoped. */
export async function getPostingSchedule(db: Executor, params: { workspaceId: string; accountId: string }) {
  const [row] = await db
    .select({
      accountId: postingSchedules.accountId,
      timeZone: postingSchedules.timeZone,
      slots: postingSchedules.slots,
    })
    .from(postingSchedules)
    .where(and(eq(postingSchedules.accountId, params.accountId), eq(postingSchedules.workspaceId, params.workspaceId)));
  return row ?? null;
}

export async function listPostingSchedules(db: Executor, params: { workspaceId: string; accountIds?: string[] }) {
  return db
    .select({
      accountId: postingSchedules.accountId,
      timeZone: postingSchedules.timeZone,
      slots: postingSchedules.slots,
    })
    .from(postingSchedules)
    .where(
      and(
        eq(postingSchedules.workspaceId, params.workspaceId),
        params.accountIds ? inArray(postingSchedules.accountId, params.accountIds) : undefined,
      ),
    );
}

/**
 * Replaces an account's schedule (PUT semantics). Only an account of the workspace gets one: the insert reads
 * the account under the workspace, so another workspace's id writes nothing (null, I6).
 */
export async function putPostingSchedule(
  db: Executor,
  params: { workspaceId: string; accountId: string; timeZone: string; slots: Slot[] },
) {
  const result = await db.execute<{ account_id: string }>(sql`
    insert into ${postingSchedules} (account_id, workspace_id, time_zone, slots, updated_at)
    select a.id, a.workspace_id, ${params.timeZone}, ${jsonb(params.slots)}, now()
    from ${socialAccounts} a
    where a.id = ${params.accountId} and a.workspace_id = ${params.workspaceId}
    on conflict (account_id) do update
      set time_zone = excluded.time_zone, slots = excluded.slots, updated_at = excluded.updated_at
    returning account_id`);
  return [...result].length === 1;
}

/** Slots already taken from `after` on, per account. */
export async function listReservedSlots(
  db: Executor,
  params: { workspaceId: string; accountIds: string[]; after: Date },
) {
  if (params.accountIds.length === 0) return [];
  return db
    .select({ accountId: slotReservations.accountId, slotAt: slotReservations.slotAt, postId: slotReservations.postId })
    .from(slotReservations)
    .where(
      and(
        eq(slotReservations.workspaceId, params.workspaceId),
        inArray(slotReservations.accountId, params.accountIds),
        gt(slotReservations.slotAt, params.after),
      ),
    )
    .orderBy(asc(slotReservations.slotAt));
}

/**
 * Takes the slot at `slotAt` on each account for the post, or none of it: one statement, rows in account
 * order (every taker locks in (time, account) order, so two takers never wait on each other in a cycle).
 * `slot_reservations_account_slot_uq` decides; a row taken by a concurrent post makes this one wait for it
 * and then skip. Returns the accounts whose slot was taken here.
 */
export async function insertSlotReservations(
  db: Executor,
  params: { workspaceId: string; postId: string; accountIds: string[]; slotAt: Date },
) {
  const ids = [...params.accountIds].map((id) => id.toLowerCase()).sort();
  const result = await db.execute<{ account_id: string }>(sql`
    insert into ${slotReservations} (workspace_id, account_id, slot_at, post_id)
    select ${params.workspaceId}, t.account_id, ${params.slotAt.toISOString()}::timestamptz, ${params.postId}
    from unnest(${sql.param(ids)}::uuid[]) with ordinality as t(account_id, n)
    order by t.n
    on conflict (account_id, slot_at) do nothing
    returning account_id`);
  return [...result].map((r) => r.account_id);
}

/**
 * Frees a post's slots (it was canceled or moved): on the given accounts, or all of them; a slot at `keepAt`
 * stays (the post is still there). In the caller's transaction, beside the change that frees them.
 */
export async function releaseSlotReservations(
  db: Executor,
  params: { workspaceId: string; postId: string; accountIds?: string[]; keepAt?: Date },
) {
  await db.execute(sql`
    delete from ${slotReservations}
    where post_id = ${params.postId} and workspace_id = ${params.workspaceId}
      ${params.accountIds ? sql`and account_id = any(${sql.param(params.accountIds)}::uuid[])` : sql``}
      ${params.keepAt ? sql`and slot_at <> ${params.keepAt.toISOString()}::timestamptz` : sql``}`);
}
