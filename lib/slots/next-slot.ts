import type { Executor } from '@/db/client';
import {
  insertSlotReservations,
  listPostingSchedules,
  listReservedSlots,
  releaseSlotReservations,
} from '@/db/queries/slots';
import { isSlotOf, slotInstants, type PostingScheduleInput } from './schedule';

/** How far ahead a queue looks for a free slot. */
export const SLOT_HORIZON_DAYS = 56;
/** A slot closer than this is not offered: it would fall due before the post is even committed. */
export const SLOT_LEAD_MS = 60_000;
const DAY_MS = 86_400_000;

export type ReserveSlotResult =
  | {
      ok: true;
      slotAt: Date;
      /** Slots found taken by a concurrent post on the way (the constraint's work). */ skipped: number;
    }
  | { ok: false; error: string };

/**
 * "Add to queue": takes the next free slot of every target account for the post, in the caller's transaction
 * (the post's own). A post to several accounts takes one instant that is a free slot in each schedule — the
 * earliest such, so never before any account's own next free slot — because a post has one time (one intent,
 * one row; lateness and the calendar read it).
 *
 * The guard is `slot_reservations_account_slot_uq`, not the read: two requests may both see a slot free; the
 * second waits for the first's commit on the unique index and then moves on to the next slot.
 */
export async function reserveNextSlot(
  tx: Executor,
  params: { workspaceId: string; postId: string; accounts: { id: string; handle: string }[]; now: Date },
): Promise<ReserveSlotResult> {
  const ids = params.accounts.map((a) => a.id);
  const schedules = new Map(
    (await listPostingSchedules(tx, { workspaceId: params.workspaceId, accountIds: ids })).map((s) => [s.accountId, s]),
  );
  const unscheduled = params.accounts.filter((a) => !schedules.get(a.id)?.slots.length);
  if (unscheduled.length > 0)
    return {
      ok: false,
      error: `${unscheduled.map((a) => a.handle).join(', ')} ${unscheduled.length > 1 ? 'have' : 'has'} no posting slots yet (Settings → Posting slots)`,
    };

  const window = {
    after: new Date(params.now.getTime() + SLOT_LEAD_MS),
    until: new Date(params.now.getTime() + SLOT_HORIZON_DAYS * DAY_MS),
  };
  const scheduleOf = (id: string) => schedules.get(id) as PostingScheduleInput;
  const taken = new Set(
    (await listReservedSlots(tx, { workspaceId: params.workspaceId, accountIds: ids, after: window.after })).map((r) =>
      r.slotAt.getTime(),
    ),
  );
  let skipped = 0;
  // The first account's slots in order; one that is also a slot of every other account is a candidate.
  for (const slotAt of slotInstants(scheduleOf(ids[0]!), window)) {
    if (taken.has(slotAt.getTime()) || !ids.every((id) => isSlotOf(scheduleOf(id), slotAt))) continue;
    const got = await insertSlotReservations(tx, {
      workspaceId: params.workspaceId,
      postId: params.postId,
      accountIds: ids,
      slotAt,
    });
    if (got.length === ids.length) return { ok: true, slotAt, skipped };
    // Taken meanwhile on some account: give back what this instant got here, try the next one.
    skipped++;
    if (got.length > 0)
      await releaseSlotReservations(tx, { workspaceId: params.workspaceId, postId: params.postId, accountIds: got });
  }
  return {
    ok: false,
    error:
      ids.length > 1
        ? `These accounts have no free slot in common in the next ${SLOT_HORIZON_DAYS / 7} weeks: pick a time, or queue them one by one`
        : `${params.accounts[0]!.handle} has no free slot in the next ${SLOT_HORIZON_DAYS / 7} weeks: add slots or pick a time`,
  };
}
