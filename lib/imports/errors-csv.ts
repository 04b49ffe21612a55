// Browser-safe: the "Download errors CSV" of the import page.
import type { ImportRowReport } from './types';

/**
 * One CSV cell, safe to open in a spreadsheet: a cell starting with = + - @ (or a tab or carriage return) would
 * run as a formula, so it gets a leading apostrophe (OWASP "CSV injection"); quotes are doubled and any cell
 * with a comma, quote or line break is quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The invalid rows of an import with their errors, and the cells as uploaded, so they can be fixed and uploaded again. */
export function errorsCsv(reports: readonly ImportRowReport[], columns: readonly string[]): string {
  const lines = [['row', 'errors', ...columns].map(csvCell).join(',')];
  for (const report of reports) {
    if (report.status !== 'invalid') continue;
    const cells = report.cells ?? {};
    lines.push(
      [String(report.row), (report.errors ?? []).join('; '), ...columns.map((c) => cells[c] ?? '')]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
