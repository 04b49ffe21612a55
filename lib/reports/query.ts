import { z } from 'zod';
import { checkRange, rangeQueryShape, type TimeRange } from '@/lib/posts/range';

export const REPORT_FORMATS = ['json', 'csv'] as const;

/** GET /api/v1/reports/publication's query: a period (both bounds, at most 100 days) and a format. */
export const reportQuerySchema = z.object({
  ...rangeQueryShape,
  format: z
    .enum(REPORT_FORMATS, { error: 'format is json or csv' })
    .default('json')
    .describe('`json` (default) or `csv` (a spreadsheet-ready download).'),
});

export type ReportQuery =
  | { ok: true; range: TimeRange; format: (typeof REPORT_FORMATS)[number] }
  | { ok: false; errors: Record<string, string[]> };

export function checkReportQuery(query: Record<string, string>): ReportQuery {
  const format = reportQuerySchema.shape.format.safeParse(query.format);
  const range = checkRange(query);
  const errors: Record<string, string[]> = {};
  if (!format.success) errors.format = ['format is json or csv'];
  if (!range.ok) Object.assign(errors, range.errors);
  else if (!range.range) {
    errors.from = ['from is required'];
    errors.to = ['to is required'];
  }
  if (Object.keys(errors).length > 0 || !range.ok || !range.range || !format.success) return { ok: false, errors };
  return { ok: true, range: range.range, format: format.data };
}
