import { getDb } from '@/db/client';
import { getWorkspaceSettings } from '@/db/queries/workspaces';
import { checkAnalyticsPeriod } from '@/lib/analytics/period';
import { can } from '@/lib/auth/can';
import { gateWorkspace } from '@/lib/auth/gate';
import { gateProblem } from '@/lib/http/app-read';
import { problem } from '@/lib/http/problem';
import { appOrigin } from '@/lib/providers';
import { readClientReport } from '@/lib/reports/client-report';
import { clientReportFileName, renderClientReportPdf } from '@/lib/reports/pdf/render';

export const dynamic = 'force-dynamic';

/** "Download PDF" (the report page) and "Client report (PDF)" (the analytics page): proof and performance together. */
export async function GET(request: Request): Promise<Response> {
  const gate = await gateWorkspace();
  if (!gate.ok) return gateProblem(gate);
  const { workspace, role } = gate.context;
  if (!can(role, 'read')) return problem({ status: 403, title: 'Forbidden' });
  const db = getDb();
  const timeZone = (await getWorkspaceSettings(db, { workspaceId: workspace.id }))?.timeZone ?? 'UTC';
  const query = new URL(request.url).searchParams;
  const checked = checkAnalyticsPeriod({ from: query.get('from') ?? '', to: query.get('to') ?? '' }, timeZone);
  if (!checked.ok)
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'Invalid report period.',
      errors: Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, [v]])),
    });
  const report = await readClientReport(db, { workspaceId: workspace.id, period: checked.period, origin: appOrigin() });
  if (!report) return problem({ status: 404, title: 'Not Found' });
  const pdf = await renderClientReportPdf(report);
  return new Response(new Uint8Array(pdf), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${clientReportFileName(report)}"`,
      'cache-control': 'private, no-store',
    },
  });
}
