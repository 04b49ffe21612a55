import { METRIC_NAMES } from '@/db/metric-names';
import { csvLine } from '@/lib/csv/cell';
import { PROVIDER_LABEL } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { METRIC_LABELS } from './metrics';

/** How a reading is called in the export: its delay after publishing (+1 h, +24 h, +7 d, +30 d). */
export function readingLabel(delayMs: number | undefined, reading: number): string {
  if (delayMs === undefined) return `reading ${reading + 1}`;
  const hours = delayMs / 3_600_000;
  return hours < 48 ? `+${Math.round(hours)} h` : `+${Math.round(hours / 24)} d`;
}

/**
 * Every reading of the period's posts, one row each (UTF-8 with a BOM, CRLF lines, safe cells: lib/csv/cell.ts). An
 * empty metric cell means the network does not give it; 0 means it counted none.
 */
export function metricsCsv(rows: Record<string, unknown>[], delaysMs: number[]): string {
  const header = [
    'Published (UTC)',
    'Network',
    'Account',
    'Post',
    'Link',
    'Reading',
    'Due (UTC)',
    'Read (UTC)',
    ...METRIC_NAMES.map((m) => METRIC_LABELS[m]),
  ];
  const lines = [csvLine(header)];
  for (const r of rows)
    lines.push(
      csvLine([
        r.publishedAt as string,
        PROVIDER_LABEL[r.provider as ProviderName],
        r.account as string,
        r.text as string,
        (r.url as string | null) ?? null,
        readingLabel(delaysMs[r.reading as number], r.reading as number),
        r.readingAt as string,
        r.takenAt as string,
        ...METRIC_NAMES.map((m) => (r[m] === null ? null : Number(r[m]))),
      ]),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
