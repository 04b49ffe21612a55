import { TZDate } from '@date-fns/tz';
import { checkReportPeriod } from '@/lib/reports/period';

const pad = (n: number) => String(n).padStart(2, '0');

/** The analytics page's default period: the last 30 days, today included, in the workspace's zone. */
export function defaultAnalyticsDays(timeZone: string, now = new Date()) {
  const today = new TZDate(now.getTime(), timeZone);
  const from = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() - 29, timeZone);
  const day = (d: TZDate) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return { fromDay: day(from), toDay: day(today) };
}

/** `from`/`to` days of the page (whole days in the workspace's zone, `to` included), defaulting to the last 30 days. */
export function checkAnalyticsPeriod(query: { from?: string; to?: string }, timeZone: string, now = new Date()) {
  const fallback = defaultAnalyticsDays(timeZone, now);
  return checkReportPeriod({ from: query.from || fallback.fromDay, to: query.to || fallback.toDay }, timeZone, now);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account filter: the ids asked for that are this workspace's; none asked: every account (null). */
export function pickAccounts(asked: string[], known: { id: string }[]): string[] | null {
  const ids = new Set(known.map((a) => a.id.toLowerCase()));
  const picked = [...new Set(asked.map((a) => a.toLowerCase()))].filter((a) => UUID.test(a) && ids.has(a));
  return picked.length === 0 ? null : picked;
}
