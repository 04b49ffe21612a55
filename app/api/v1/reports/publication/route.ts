import { getDb } from '@/db/client';
import { apiHandler, json } from '@/lib/api/handler';
import { problem } from '@/lib/http/problem';
import { requestOrigin } from '@/lib/http/request-origin';
import { publicationReportCsv } from '@/lib/reports/csv';
import { readPublicationReport } from '@/lib/reports/publication';
import { checkReportQuery } from '@/lib/reports/query';

export const dynamic = 'force-dynamic';

export const GET = apiHandler('posts:read', async (request, principal) => {
  const query = checkReportQuery(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.ok)
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'The report needs a period: `from` and `to` (ISO-8601 with a zone), and `format` json or csv.',
      errors: query.errors,
    });
  const report = await readPublicationReport(getDb(), {
    workspaceId: principal.workspaceId,
    range: query.range,
    origin: requestOrigin(request),
  });
  if (!report) return problem({ status: 404, title: 'Not Found', detail: 'The workspace no longer exists.' });
  if (query.format === 'json') return json(report);
  const day = (iso: string) => iso.slice(0, 10);
  return new Response(publicationReportCsv(report), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="publication-report-${day(report.from)}-to-${day(report.to)}.csv"`,
    },
  });
});
