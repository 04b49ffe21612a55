import { getDb } from '@/db/client';
import { checkAnalyticsPeriod } from '@/lib/analytics/period';
import { readPeriodDownload } from '@/lib/http/period-read';
import { problem } from '@/lib/http/problem';
import { appOrigin } from '@/lib/providers';
import { readClientReport } from '@/lib/reports/client-report';
import { clientReportFileName, renderClientReportPdf } from '@/lib/reports/pdf/render';

export const dynamic = 'force-dynamic';

/** "Download PDF" (the report page) and "Client report (PDF)" (the analytics page): proof and performance together. */
export async function GET(request: Request): Promise<Response> {
  const read = await readPeriodDownload(request, checkAnalyticsPeriod);
  if (!read.ok) return read.response;
  const report = await readClientReport(getDb(), {
    workspaceId: read.context.workspace.id,
    period: read.period,
    origin: appOrigin(),
  });
  if (!report) return problem({ status: 404, title: 'Not Found' });
  return new Response(new Uint8Array(await renderClientReportPdf(report)), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${clientReportFileName(report)}"`,
      'cache-control': 'private, no-store',
    },
  });
}
