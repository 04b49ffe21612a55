'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { putAccountSchedule } from '@/lib/slots/account-schedule';
import { postingScheduleSchema } from '@/lib/slots/schedule';

export type SaveScheduleResult = { nextFreeSlots: string[] };

/** Replaces one account's weekly posting slots (admins: the same capability as managing accounts). */
export const saveScheduleAction = workspaceAction(
  {
    name: 'savePostingSchedule',
    can: 'manageAccounts',
    schema: z.object({ accountId: z.uuid(), timeZone: z.string(), slots: z.string().default('[]') }),
  },
  async ({ accountId, timeZone, slots }, { workspace }): Promise<ActionState<SaveScheduleResult>> => {
    let slotList: unknown;
    try {
      slotList = JSON.parse(slots);
    } catch {
      return { ok: false, status: 422, message: 'The slots could not be read; reload the page.' };
    }
    const parsed = postingScheduleSchema.safeParse({ timeZone, slots: slotList });
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'slots'] ??= []).push(issue.message);
      return { ok: false, status: 422, errors, message: 'Please fix the highlighted slots.' };
    }
    const result = await putAccountSchedule(getDb(), { workspaceId: workspace.id, accountId, schedule: parsed.data });
    if (result.kind === 'not_found') return { ok: false, status: 404, message: 'This account no longer exists.' };
    revalidatePath('/settings/slots');
    return {
      ok: true,
      data: { nextFreeSlots: result.schedule.nextFreeSlots },
      message: `Saved: ${parsed.data.slots.length} slot${parsed.data.slots.length === 1 ? '' : 's'} a week.`,
    };
  },
);
