import { z } from 'zod';

/** The widest range one read may ask for: a calendar month grid is 42 days, a quarter ~92. */
export const MAX_RANGE_DAYS = 100;
const DAY_MS = 86_400_000;

const instant = (bound: 'from' | 'to') =>
  z.iso
    .datetime({
      offset: true,
      abort: true,
      message: `${bound} must be an ISO-8601 date-time with a time zone, e.g. 2026-07-01T00:00:00Z`,
    })
    // A year Postgres cannot store would fail in the query as a 500.
    .refine((v) => /^\d{4}-/.test(v) && Number.isFinite(Date.parse(v)), `${bound} is not a valid time`);

/** `from` and `to` as query parameters (both or neither); documented in the API's contract. */
export const rangeQueryShape = {
  from: instant('from')
    .optional()
    .describe('Start of a time range (inclusive), ISO-8601 with a zone. Needs `to`; the page is then in time order.'),
  to: instant('to').optional().describe(`End of the range (exclusive); at most ${MAX_RANGE_DAYS} days after \`from\`.`),
};

export type TimeRange = { from: Date; to: Date };
export type RangeCheck = { ok: true; range: TimeRange | null } | { ok: false; errors: Record<string, string[]> };

/**
 * `[from, to)` from query parameters: both or neither, `from` before `to`, at most MAX_RANGE_DAYS apart.
 * Neither gives `range: null` (the caller's unranged behaviour).
 */
export function checkRange(query: { from?: string; to?: string }): RangeCheck {
  const parsed = z.object(rangeQueryShape).safeParse({ from: query.from, to: query.to });
  if (!parsed.success)
    return { ok: false, errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  const { from, to } = parsed.data;
  if (from === undefined && to === undefined) return { ok: true, range: null };
  if (from === undefined) return { ok: false, errors: { from: ['from is required with to'] } };
  if (to === undefined) return { ok: false, errors: { to: ['to is required with from'] } };
  const range = { from: new Date(from), to: new Date(to) };
  if (range.to.getTime() <= range.from.getTime()) return { ok: false, errors: { to: ['to must be after from'] } };
  if (range.to.getTime() - range.from.getTime() > MAX_RANGE_DAYS * DAY_MS)
    return { ok: false, errors: { to: [`The range may span at most ${MAX_RANGE_DAYS} days`] } };
  return { ok: true, range };
}
