import { reportPerformanceSchema, reportPerformanceTotalsSchema } from '@/lib/api/contract/analytics-schemas';
import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';
import { SETTLEMENT_LABEL, type PublicationReport, type Settlement } from '@/lib/reports/publication';
import { reportQuerySchema } from '@/lib/reports/query';

const settlement = z.enum(Object.keys(SETTLEMENT_LABEL) as [Settlement, ...Settlement[]]).openapi({
  description:
    'How it ended: `direct` (the platform confirmed it in answer to the call), `reconciled` (the outcome was unknown and a read of the platform found it), `admin` (a person decided), `missed`, `failed`, `canceled`, or `open` (not settled yet).',
});
const iso = z.string().openapi({ format: 'date-time' });

const reportSchema = z
  .object({
    workspace: z.object({ name: z.string(), timeZone: z.string() }),
    from: iso,
    to: iso,
    totals: z
      .object({
        deliveries: z.number().int(),
        sent: z.number().int(),
        direct: z.number().int(),
        reconciled: z.number().int(),
        admin: z.number().int(),
        missed: z.number().int(),
        failed: z.number().int(),
        canceled: z.number().int(),
        open: z.number().int(),
      })
      .openapi({ description: 'Deliveries in the period, sent ones, and the count per settlement.' }),
    performance: reportPerformanceTotalsSchema,
    rows: z.array(
      z.object({
        text: z.string(),
        part: z.string().nullable().openapi({ description: '"Part 2 of 3" for a thread part.' }),
        network: z.string(),
        account: z.string(),
        status: z.string(),
        scheduledAt: iso,
        publishedAt: iso.nullable(),
        latenessSeconds: z.number().int().nullable(),
        link: z.string().nullable(),
        settlement,
        how: z.string().openapi({ description: 'In words: the evidence, who decided and why, or the reason.' }),
        performance: reportPerformanceSchema,
      }),
    ),
    incidents: z.array(
      z.object({
        at: iso,
        kind: z.enum(['ambiguous', 'review_decision', 'duplicates', 'late_copy']),
        account: z.string(),
        text: z.string(),
        detail: z.string(),
      }),
    ),
  })
  .openapi('PublicationReport', {
    description:
      'Proof of publication for a period: every delivery of the posts scheduled in `[from, to)` and how it was settled, with totals and incidents, and how each did (its latest metrics reading) with the performance totals. No internal ids or tokens.',
  }) satisfies z.ZodType<PublicationReport>;

/** /api/v1/reports/publication — the contract of ./route.ts. */
export const publicationReportContract = defineRoute('/reports/publication', {
  GET: {
    operationId: 'getPublicationReport',
    summary: 'Proof-of-publication report for a period (JSON or CSV)',
    description:
      'Every delivery of the posts scheduled in `[from, to)` (at most 100 days): account, scheduled and published time, lateness, platform link, and how it was settled. `format=csv` answers a spreadsheet-ready download with the same rows.',
    scope: 'posts:read',
    request: { query: reportQuerySchema },
    responses: {
      200: jsonResponse('The report (with `format=csv`: the rows as `text/csv`, a download)', reportSchema),
      422: problemResponse(
        'Missing or invalid `from`/`to`, a range over 100 days, or an unknown `format` (nothing read)',
      ),
    },
  },
});
