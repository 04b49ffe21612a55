import { TZDate } from '@date-fns/tz';
import type { Database } from '@/db/client';
import { enqueueClientReport, listScheduledClientReports } from '@/db/queries/client-reports';
import { checkReportPeriod, type ReportPeriod } from './period';

// The monthly client report (docs/analytics.md#the-client-report): once a month of the workspace's zone is over, its
// report goes to the recipient set in Settings → Client report, once per workspace and month (a constraint), through
// the notifications outbox (the email carries the PDF).

/** A month is sent in the week after it ends: a schedule set later does not send an old month, an outage of days does. */
const SEND_WINDOW_DAYS = 7;
const pad = (n: number) => String(n).padStart(2, '0');

/** The month that ended last in the zone, and how many days ago it ended. */
export function lastCompleteMonth(now: Date, timeZone: string): { period: string; daysSinceEnd: number } {
  const today = new TZDate(now.getTime(), timeZone);
  const start = new TZDate(today.getFullYear(), today.getMonth(), 1, timeZone);
  const previous = new TZDate(today.getFullYear(), today.getMonth() - 1, 1, timeZone);
  return {
    period: `${previous.getFullYear()}-${pad(previous.getMonth() + 1)}`,
    daysSinceEnd: (now.getTime() - start.getTime()) / 86_400_000,
  };
}

/** A month (YYYY-MM) as the report's period: its first to its last day in the zone. */
export function monthPeriod(period: string, timeZone: string): ReportPeriod {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const checked = checkReportPeriod({ from: `${period}-01`, to: `${period}-${pad(last)}` }, timeZone);
  if (!checked.ok) throw new Error(`not a month: ${period}`);
  return checked.period;
}

/** Enqueues each scheduled workspace's report of the month that just ended, once (a re-run or a race adds none). */
export async function enqueueMonthlyClientReports(db: Database, options: { now?: Date } = {}) {
  const now = options.now ?? new Date();
  let enqueued = 0;
  for (const schedule of await listScheduledClientReports(db)) {
    const { period, daysSinceEnd } = lastCompleteMonth(now, schedule.timeZone);
    if (daysSinceEnd > SEND_WINDOW_DAYS) continue;
    if (await enqueueClientReport(db, { workspaceId: schedule.workspaceId, period, toAddress: schedule.toAddress }))
      enqueued++;
  }
  return { enqueued };
}
