// Browser-safe: what a post's metrics are and how they add up (docs/analytics.md#metrics).
import { ENGAGEMENT_METRICS, METRIC_NAMES, type MetricName } from '@/db/metric-names';

export { ENGAGEMENT_METRICS, METRIC_NAMES, type MetricName };

/** A post's public metrics as its network reports them; a metric the network does not give is absent, never 0. */
export type PostMetrics = Partial<Record<MetricName, number>>;

export const METRIC_LABELS: Record<MetricName, string> = {
  views: 'Views',
  likes: 'Likes',
  reposts: 'Reposts',
  replies: 'Replies',
  quotes: 'Quotes',
  saves: 'Saves',
  clicks: 'Clicks',
};

/** The interactions the network gives, added up; null when it gives none of them. */
export function engagementOf(metrics: PostMetrics): number | null {
  const given = ENGAGEMENT_METRICS.map((m) => metrics[m]).filter((v): v is number => typeof v === 'number');
  return given.length === 0 ? null : given.reduce((a, b) => a + b, 0);
}

/** A count as a non-negative integer, or absent: what a network answered that is not a count is not a zero. */
export function countOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Only the metrics that are present (an undefined key is dropped, so "absent" survives JSON). */
export function presentMetrics(metrics: Record<MetricName, number | undefined>): PostMetrics {
  return Object.fromEntries(Object.entries(metrics).filter(([, v]) => v !== undefined)) as PostMetrics;
}
