import { z } from 'zod';
import type { Executor } from '@/db/client';
import { listPostsInRange } from '@/db/queries/posts';
import { deliveryStatusEnum, type DeliveryStatus } from '@/db/schema';
import { checkRange } from '@/lib/posts/range';
import type { ProviderName } from '@/lib/providers/types';
import { postStatus } from '@/lib/posts/serialize';
import { progressByAccount } from '@/lib/posts/thread-progress';

/** Posts past this many in one range are left out (and the calendar says so): a page stays fast and readable. */
export const CALENDAR_POST_CAP = 2_000;
/** A chip shows a line of text; the rest is on the post's page. */
const CHIP_TEXT_LENGTH = 140;

export const calendarFiltersSchema = z.object({
  status: z.enum(deliveryStatusEnum.enumValues).optional().catch(undefined),
  account: z.uuid().optional().catch(undefined),
});
export type CalendarFilters = z.output<typeof calendarFiltersSchema>;

export type CalendarDelivery = {
  id: string;
  accountId: string;
  status: DeliveryStatus;
  handle: string;
  displayName: string | null;
  provider: ProviderName;
};
export type CalendarPost = {
  id: string;
  kind: string;
  text: string;
  scheduledAt: string;
  status: DeliveryStatus | 'partial';
  deliveries: CalendarDelivery[];
};
export type CalendarData = { posts: CalendarPost[]; truncated: boolean };

export type CalendarReadResult = { ok: true; data: CalendarData } | { ok: false; errors: Record<string, string[]> };

/**
 * The calendar's posts in `[from, to)`, workspace-scoped, with what a chip shows (accounts, statuses, time).
 * Unknown filter values are ignored (a stale link still opens); a bad range is refused.
 */
export async function readCalendar(
  db: Executor,
  params: { workspaceId: string; query: Record<string, string | undefined> },
): Promise<CalendarReadResult> {
  const range = checkRange(params.query);
  if (!range.ok) return { ok: false, errors: range.errors };
  if (!range.range) return { ok: false, errors: { from: ['from and to are required'] } };
  const filters = calendarFiltersSchema.parse(params.query);
  const rows = await listPostsInRange(db, {
    workspaceId: params.workspaceId,
    ...range.range,
    status: filters.status,
    accountId: filters.account,
    limit: CALENDAR_POST_CAP + 1,
  });
  return {
    ok: true,
    data: {
      truncated: rows.length > CALENDAR_POST_CAP,
      posts: rows.slice(0, CALENDAR_POST_CAP).map(({ post, deliveries: all }) => {
        // A thread is one chip: per account, the part it is at.
        const deliveries = progressByAccount(all);
        return {
          id: post.id,
          kind: post.kind,
          text: post.text.length > CHIP_TEXT_LENGTH ? `${post.text.slice(0, CHIP_TEXT_LENGTH - 1)}…` : post.text,
          scheduledAt: post.scheduledAt.toISOString(),
          status: postStatus(deliveries.map((d) => d.status)),
          deliveries: deliveries.map((d) => ({
            id: d.id,
            accountId: d.accountId,
            status: d.status,
            handle: d.accountHandle,
            displayName: d.accountDisplayName,
            provider: d.accountProvider,
          })),
        };
      }),
    },
  };
}
