import { providerEnum } from '@/db/schema';
import { METRIC_LABELS, METRIC_NAMES } from '@/lib/analytics/metrics';
import { z } from './zod';

// The analytics representations of the API (docs/analytics.md#api): a metric a network does not give is null, never 0.

const metric = (name: (typeof METRIC_NAMES)[number]) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${METRIC_LABELS[name]}; null: no network of the set gives it.` });

const metricsShape = Object.fromEntries(METRIC_NAMES.map((m) => [m, metric(m)])) as Record<
  (typeof METRIC_NAMES)[number],
  ReturnType<typeof metric>
>;

export const metricTotalsSchema = z
  .object({
    posts: z.number().int().openapi({
      description:
        "Posts sent in the period, one per post and account: a first comment or a thread's later part is no post of its own (its metrics are in the sums).",
    }),
    ...metricsShape,
    engagement: z.number().nullable().openapi({
      description:
        'Likes, reposts, replies, quotes, saves and clicks added up (views excluded), at the latest reading.',
    }),
  })
  .openapi('MetricTotals');

export const analyticsSummarySchema = z
  .object({
    from: z.string().openapi({ format: 'date-time' }),
    to: z.string().openapi({ format: 'date-time' }),
    timeZone: z.string().openapi({ description: 'The workspace’s zone: its days count the followers.' }),
    accountIds: z.array(z.uuid()).nullable().openapi({ description: 'The accounts asked for; null: all of them.' }),
    totals: metricTotalsSchema,
    previous: z
      .object({ from: z.string(), to: z.string(), totals: metricTotalsSchema })
      .openapi({ description: 'The period of the same length just before.' }),
    change: z.record(z.string(), z.number().nullable()).openapi({
      description: 'Each total against the previous period, as a share (0.25 = +25 %); null: nothing to compare.',
    }),
    followers: z.object({
      end: z
        .number()
        .nullable()
        .openapi({ description: 'The accounts’ followers at the period’s last day (their latest counts).' }),
      change: z.number().nullable(),
      previousChange: z.number().nullable(),
    }),
    networks: z.array(metricTotalsSchema.extend({ provider: z.enum(providerEnum.enumValues) })),
  })
  .openapi('AnalyticsSummary', {
    description:
      'How the posts published in `[from, to)` did, from the latest reading of each (metrics read at +1 h, +24 h, +7 d and +30 d).',
  });

const readingSchema = z.object({
  reading: z.number().int(),
  label: z.string().openapi({ description: 'The reading’s delay after publishing: "+1 h", "+24 h", "+7 d", "+30 d".' }),
  readingAt: z.string().openapi({ format: 'date-time', description: 'When it was due (published + its delay).' }),
  takenAt: z.string().openapi({ format: 'date-time', description: 'When it was read.' }),
  metrics: z.object(metricsShape),
  engagement: z.number().nullable(),
});

export const postMetricsSchema = z
  .object({
    postId: z.uuid(),
    deliveries: z.array(
      z.object({
        deliveryId: z.uuid(),
        accountId: z.uuid(),
        account: z.string(),
        provider: z.enum(providerEnum.enumValues),
        part: z.number().int(),
        state: z.enum(['waiting', 'reading', 'done', 'deleted', 'unsupported']).openapi({
          description:
            '`waiting`: not sent, or its first reading is not due yet; `reading`: more readings to come; `done`: every reading taken; `deleted`: gone from the network (read no more); `unsupported`: the network gives no metrics for it.',
        }),
        nextReadingAt: z.string().nullable(),
        nextReadingDue: z
          .boolean()
          .openapi({ description: 'The next reading is due already: the metrics job takes it on its next run.' }),
        stoppedAt: z.string().nullable(),
        readings: z.array(readingSchema),
      }),
    ),
  })
  .openapi('PostMetrics', { description: 'Each delivery’s metric history, one entry per reading, oldest first.' });

/** A report row's latest reading (the proof-of-publication report's performance section). */
export const reportPerformanceSchema = z
  .object({
    ...metricsShape,
    engagement: z.number().nullable(),
    readAt: z.string().openapi({ format: 'date-time', description: 'When its latest reading was taken.' }),
  })
  .nullable()
  .openapi({
    description: 'How it did, at its latest reading; null before the first one (an hour after it goes out).',
  });

export const reportPerformanceTotalsSchema = z
  .object({
    read: z.number().int().openapi({ description: 'Sent deliveries read so far.' }),
    ...metricsShape,
    engagement: z.number().nullable(),
  })
  .openapi({ description: 'The performance section’s totals over the deliveries read.' });
