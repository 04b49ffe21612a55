import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { checkRange, rangeQueryShape } from '@/lib/posts/range';
import type { ReportPeriod } from '@/lib/reports/period';

/** GET /api/v1/analytics/summary's query: a period (both bounds, at most 100 days) and, optionally, accounts. */
export const summaryQuerySchema = z.object({
  from: rangeQueryShape.from.unwrap().describe('Start of the period (inclusive), ISO-8601 with a zone.'),
  to: rangeQueryShape.to.unwrap().describe('End of the period (exclusive); at most 100 days after `from`.'),
  accountIds: z
    .string()
    .optional()
    .describe('Only these accounts: their ids, comma-separated (all the workspace’s accounts when left out).'),
});

const UUID = z.uuid();
const pad = (n: number) => String(n).padStart(2, '0');
const dayIn = (at: Date, timeZone: string) => {
  const d = new TZDate(at.getTime(), timeZone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

export type SummaryQuery =
  { ok: true; period: ReportPeriod; accountIds: string[] | null } | { ok: false; errors: Record<string, string[]> };

/**
 * The summary's period and accounts, or field errors: `from`/`to` as the other ranged reads take them; `accountIds`
 * must all be this workspace's accounts (another workspace's id is refused like an unknown one). Its days, for the
 * follower counts, are those of the workspace's zone that hold `from` and the instant before `to`.
 */
export function checkSummaryQuery(
  query: Record<string, string>,
  context: { timeZone: string; accountIds: string[] },
): SummaryQuery {
  const errors: Record<string, string[]> = {};
  const range = checkRange(query);
  if (!range.ok) Object.assign(errors, range.errors);
  else if (!range.range) {
    errors.from = ['from is required'];
    errors.to = ['to is required'];
  }
  let accountIds: string[] | null = null;
  if (query.accountIds !== undefined && query.accountIds.trim() !== '') {
    const asked = query.accountIds.split(',').map((id) => id.trim().toLowerCase());
    const known = new Set(context.accountIds.map((id) => id.toLowerCase()));
    const unknown = asked.filter((id) => !UUID.safeParse(id).success || !known.has(id));
    if (unknown.length > 0) errors.accountIds = [`Not accounts of this workspace: ${unknown.slice(0, 5).join(', ')}`];
    else accountIds = [...new Set(asked)];
  }
  if (Object.keys(errors).length > 0 || !range.ok || !range.range) return { ok: false, errors };
  const { from, to } = range.range;
  return {
    ok: true,
    accountIds,
    period: {
      fromDay: dayIn(from, context.timeZone),
      toDay: dayIn(new Date(to.getTime() - 1), context.timeZone),
      range: range.range,
    },
  };
}
