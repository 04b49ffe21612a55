import { getDb } from '@/db/client';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { can } from '@/lib/auth/can';
import { gateWorkspace } from '@/lib/auth/gate';
import { gateProblem } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { appOrigin } from '@/lib/providers';
import { publicationReportCsv } from '@/lib/reports/csv';
import { checkReportPeriod } from '@/lib/reports/period';
import { readPublicationReport } from '@/lib/reports/publication';

export const dynamic = 'force-dynamic';

/** The report page's "Download CSV": the signed-in member's active workspace, the page's period. */
export async function GET(request: Request): Promise<Response> {
  const gate = await gateWorkspace();
  if (!gate.ok) return gateProblem(gate);
  const context = gate.context;
  if (!can(context.role, 'read')) return problem({ status: 403, title: 'Forbidden' });
  const db = getDb();
  const timeZone = (await getWorkspaceSettings(db, { workspaceId: context.workspace.id }))?.timeZone ?? 'UTC';
  const checked = checkReportPeriod(Object.fromEntries(new URL(request.url).searchParams), timeZone);
  if (!checked.ok)
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'Invalid report period.',
      errors: Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, [v]])),
    });
  const report = await readPublicationReport(db, {
    workspaceId: context.workspace.id,
    range: checked.period.range,
    origin: appOrigin(),
  });
  if (!report) return problem({ status: 404, title: 'Not Found' });
  return new Response(publicationReportCsv(report), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="publication-report-${checked.period.fromDay}-to-${checked.period.toDay}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
}
