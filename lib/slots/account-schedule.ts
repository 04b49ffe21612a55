import { z } from 'zod';
import type { Executor } from '@/db/client';
import { getTargetAccounts } from '@/db/queries/posts';
import { getPostingSchedule, listReservedSlots, putPostingSchedule } from '@/db/queries/slots';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { SLOT_HORIZON_DAYS, SLOT_LEAD_MS } from './next-slot';
import { slotInstants, type PostingScheduleInput, type Slot } from './schedule';

/** How many coming free slots a schedule's answer lists (what "Add to queue" would take next). */
export const SHOWN_FREE_SLOTS = 5;

export type AccountSchedule = {
  accountId: string;
  timeZone: string;
  slots: Slot[];
  /** The next free slots, earliest first (ISO instants): where "Add to queue" puts the next posts. */
  nextFreeSlots: string[];
};

export type AccountScheduleResult = { kind: 'ok'; schedule: AccountSchedule } | { kind: 'not_found' };

const isUuid = (id: string) => z.uuid().safeParse(id).success;

/**
 * An account's posting schedule with its next free slots; an account without one answers an empty schedule
 * in the workspace's zone. Another workspace's account is not found (I6).
 */
export async function getAccountSchedule(
  db: Executor,
  params: { workspaceId: string; accountId: string; now?: Date },
): Promise<AccountScheduleResult> {
  if (!isUuid(params.accountId)) return { kind: 'not_found' };
  const [account] = await getTargetAccounts(db, { workspaceId: params.workspaceId, accountIds: [params.accountId] });
  if (!account) return { kind: 'not_found' };
  const stored = await getPostingSchedule(db, params);
  const schedule: PostingScheduleInput = stored
    ? { timeZone: stored.timeZone, slots: stored.slots as Slot[] }
    : { timeZone: (await getWorkspaceSettings(db, params))?.timeZone ?? 'UTC', slots: [] };
  return {
    kind: 'ok',
    schedule: {
      accountId: account.id,
      ...schedule,
      nextFreeSlots: await nextFreeSlots(db, { ...params, accountId: account.id, schedule }),
    },
  };
}

/** Replaces the account's schedule (PUT); slots already taken keep their posts. */
export async function putAccountSchedule(
  db: Executor,
  params: { workspaceId: string; accountId: string; schedule: PostingScheduleInput; now?: Date },
): Promise<AccountScheduleResult> {
  if (!isUuid(params.accountId)) return { kind: 'not_found' };
  const saved = await putPostingSchedule(db, { ...params, ...params.schedule });
  return saved ? getAccountSchedule(db, params) : { kind: 'not_found' };
}

async function nextFreeSlots(
  db: Executor,
  params: { workspaceId: string; accountId: string; schedule: PostingScheduleInput; now?: Date },
) {
  const now = params.now ?? new Date();
  const window = {
    after: new Date(now.getTime() + SLOT_LEAD_MS),
    until: new Date(now.getTime() + SLOT_HORIZON_DAYS * 86_400_000),
  };
  const taken = new Set(
    (
      await listReservedSlots(db, {
        workspaceId: params.workspaceId,
        accountIds: [params.accountId],
        after: window.after,
      })
    ).map((r) => r.slotAt.getTime()),
  );
  const free: string[] = [];
  for (const slot of slotInstants(params.schedule, window)) {
    if (!taken.has(slot.getTime())) free.push(slot.toISOString());
    if (free.length === SHOWN_FREE_SLOTS) break;
  }
  return free;
}
