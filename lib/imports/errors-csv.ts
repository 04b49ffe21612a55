// Browser-safe: the "Download errors CSV" of the import page.
import { csvLine } from '@/lib/csv/cell';
import type { ImportRowReport } from './types';

/** The invalid rows of an import with their errors, and the cells as uploaded, so they can be fixed and uploaded again. */
export function errorsCsv(reports: readonly ImportRowReport[], columns: readonly string[]): string {
  const lines = [csvLine(['row', 'errors', ...columns])];
  for (const report of reports) {
    if (report.status !== 'invalid') continue;
    const cells = report.cells ?? {};
    lines.push(csvLine([String(report.row), (report.errors ?? []).join('; '), ...columns.map((c) => cells[c] ?? '')]));
  }
  return lines.join('\r\n') + '\r\n';
}
