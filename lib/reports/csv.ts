import { SETTLEMENT_LABEL, type PublicationReport } from './publication';

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (= + - @, tab, CR) is
 * prefixed with an apostrophe: the report quotes post text, which anyone could have written.
 */
export function csvCell(value: string | number | null): string {
  const text = value == null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

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
] as const;

/** The report's deliveries as a CSV a spreadsheet opens (UTF-8 with a BOM, CRLF lines). */
export function publicationReportCsv(report: PublicationReport): string {
  const lines = [COLUMNS.map(csvCell).join(',')];
  for (const r of report.rows)
    lines.push(
      [
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
      ]
        .map(csvCell)
        .join(','),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
