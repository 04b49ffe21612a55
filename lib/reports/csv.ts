import { METRIC_LABELS, METRIC_NAMES } from '@/lib/analytics/metrics';
import { csvLine } from '@/lib/csv/cell';
import { SETTLEMENT_LABEL, type PublicationReport } from './publication';

const COLUMNS = [
  'Scheduled (UTC)',
  'Published (UTC)',
  'Lateness (s)',
  'Network',
  'Account',
  'Post',
  'Thread part',
  'Status',
  'Settled',
  'How',
  'Link',
  ...METRIC_NAMES.map((m) => METRIC_LABELS[m]),
  'Engagement',
  'Metrics read (UTC)',
] as const;

/** The report's deliveries as a CSV a spreadsheet opens (UTF-8 with a BOM, CRLF lines). */
export function publicationReportCsv(report: PublicationReport): string {
  const lines = [csvLine(COLUMNS)];
  for (const r of report.rows)
    lines.push(
      csvLine([
        r.scheduledAt,
        r.publishedAt,
        r.latenessSeconds,
        r.network,
        r.account,
        r.text,
        r.part,
        r.status,
        SETTLEMENT_LABEL[r.settlement],
        r.how,
        r.link,
        ...METRIC_NAMES.map((m) => r.performance?.[m] ?? null),
        r.performance?.engagement ?? null,
        r.performance?.readAt ?? null,
      ]),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
