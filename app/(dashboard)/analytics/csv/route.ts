import { getDb } from '@/db/client';
import { listAnalyticsAccounts, listMetricSnapshotsForExport } from '@/db/queries/analytics';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { metricsCsv } from '@/lib/analytics/csv';
import { checkAnalyticsPeriod, pickAccounts } from '@/lib/analytics/period';
import { can } from '@/lib/auth/can';
import { gateWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { gateProblem } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

/** The analytics page's "Download metrics (CSV)": every reading of the period's posts, the page's filters. */
export async function GET(request: Request): Promise<Response> {
  const gate = await gateWorkspace();
  if (!gate.ok) return gateProblem(gate);
  const { workspace, role } = gate.context;
  if (!can(role, 'read')) return problem({ status: 403, title: 'Forbidden' });
  const db = getDb();
  const query = new URL(request.url).searchParams;
  const timeZone = (await getWorkspaceSettings(db, { workspaceId: workspace.id }))?.timeZone ?? 'UTC';
  const checked = checkAnalyticsPeriod({ from: query.get('from') ?? '', to: query.get('to') ?? '' }, timeZone);
  if (!checked.ok)
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'Invalid period.',
      errors: Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, [v]])),
    });
  const accountIds = pickAccounts(
    query.getAll('account'),
    await listAnalyticsAccounts(db, { workspaceId: workspace.id }),
  );
  const rows = await listMetricSnapshotsForExport(db, {
    workspaceId: workspace.id,
    from: checked.period.range.from,
    to: checked.period.range.to,
    accountIds,
    timeZone,
  });
  return new Response(metricsCsv(rows, getEnv().ANALYTICS_READ_DELAYS_MS), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="metrics-${checked.period.fromDay}-to-${checked.period.toDay}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
}
