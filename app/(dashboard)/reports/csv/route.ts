import { getDb } from '@/db/client';
import { readPeriodDownload } from '@/lib/http/period-read';
import { problem } from '@/lib/http/problem';
import { appOrigin } from '@/lib/providers';
import { publicationReportCsv } from '@/lib/reports/csv';
import { checkReportPeriod } from '@/lib/reports/period';
import { readPublicationReport } from '@/lib/reports/publication';

export const dynamic = 'force-dynamic';

/** The report page's "Download CSV": the signed-in member's active workspace, the page's period. */
export async function GET(request: Request): Promise<Response> {
  const read = await readPeriodDownload(request, (query, timeZone) => checkReportPeriod(query, timeZone));
  if (!read.ok) return read.response;
  const report = await readPublicationReport(getDb(), {
    workspaceId: read.context.workspace.id,
    range: read.period.range,
    origin: appOrigin(),
  });
  if (!report) return problem({ status: 404, title: 'Not Found' });
  return new Response(publicationReportCsv(report), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="publication-report-${read.period.fromDay}-to-${read.period.toDay}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
}
