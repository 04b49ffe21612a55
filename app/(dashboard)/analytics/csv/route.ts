import { getDb } from '@/db/client';
import { listAnalyticsAccounts, listMetricSnapshotsForExport } from '@/db/queries/analytics';
import { metricsCsv } from '@/lib/analytics/csv';
import { checkAnalyticsPeriod, pickAccounts } from '@/lib/analytics/period';
import { getEnv } from '@/lib/env';
import { readPeriodDownload } from '@/lib/http/period-read';

export const dynamic = 'force-dynamic';

/** The analytics page's "Download metrics (CSV)": every reading of the period's posts, the page's filters. */
export async function GET(request: Request): Promise<Response> {
  const read = await readPeriodDownload(request, checkAnalyticsPeriod);
  if (!read.ok) return read.response;
  const { context, period, timeZone, query } = read;
  const db = getDb();
  const workspaceId = context.workspace.id;
  const accountIds = pickAccounts(query.getAll('account'), await listAnalyticsAccounts(db, { workspaceId }));
  const rows = await listMetricSnapshotsForExport(db, {
    workspaceId,
    from: period.range.from,
    to: period.range.to,
    accountIds,
    timeZone,
  });
  return new Response(metricsCsv(rows, getEnv().ANALYTICS_READ_DELAYS_MS), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="metrics-${period.fromDay}-to-${period.toDay}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
}
