import { TZDate } from '@date-fns/tz';
import { MAX_RANGE_DAYS, type TimeRange } from '@/lib/posts/range';
import { zonedLocalToUtc } from '@/lib/time/zoned';

/** The report page's period: whole days in the workspace's zone, `to` included. */
export type ReportPeriod = { fromDay: string; toDay: string; range: TimeRange };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (d: TZDate) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * The default period: from Monday of last week to Sunday of next week (three weeks around today), which
 * covers what went out lately and what is coming.
 */
export function defaultPeriodDays(timeZone: string, now = new Date()): { fromDay: string; toDay: string } {
  const today = new TZDate(now.getTime(), timeZone);
  const sinceMonday = (today.getDay() + 6) % 7;
  const from = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() - sinceMonday - 7, timeZone);
  const to = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() - sinceMonday + 13, timeZone);
  return { fromDay: dayOf(from), toDay: dayOf(to) };
}

/** `from`/`to` days (YYYY-MM-DD, as <input type="date"> sends them) → the UTC range, or field errors. */
export function checkReportPeriod(
  query: { from?: string; to?: string },
  timeZone: string,
  now = new Date(),
): { ok: true; period: ReportPeriod } | { ok: false; fromDay: string; toDay: string; errors: Record<string, string> } {
  const fallback = defaultPeriodDays(timeZone, now);
  const fromDay = query.from || fallback.fromDay;
  const toDay = query.to || fallback.toDay;
  const errors: Record<string, string> = {};
  const start = DAY.test(fromDay) ? zonedLocalToUtc(`${fromDay}T00:00`, timeZone) : null;
  if (!start?.ok) errors.from = 'Pick a start date';
  const last = DAY.test(toDay) ? zonedLocalToUtc(`${toDay}T00:00`, timeZone) : null;
  if (!last?.ok) errors.to = 'Pick an end date';
  if (!start?.ok || !last?.ok) return { ok: false, fromDay, toDay, errors };
  // The end day is included: the range ends at the next day's midnight in the zone.
  const endDay = new TZDate(last.date.getTime(), timeZone);
  const end = new TZDate(endDay.getFullYear(), endDay.getMonth(), endDay.getDate() + 1, timeZone);
  const range = { from: start.date, to: new Date(end.getTime()) };
  if (range.to <= range.from)
    return { ok: false, fromDay, toDay, errors: { to: 'The end date is before the start date' } };
  if (range.to.getTime() - range.from.getTime() > MAX_RANGE_DAYS * 86_400_000 + 3_600_000)
    return { ok: false, fromDay, toDay, errors: { to: `A report covers at most ${MAX_RANGE_DAYS} days` } };
  return { ok: true, period: { fromDay, toDay, range } };
}
