import type { Executor } from '@/db/client';
import { listPostMetricHistory } from '@/db/queries/post-metrics';
import type { ProviderName } from '@/db/schema';
import { readingLabel } from './csv';
import { engagementOf, METRIC_NAMES, type MetricName, type PostMetrics } from './metrics';

export type MetricReadingView = {
  reading: number;
  /** "+1 h", "+24 h", "+7 d", "+30 d". */
  label: string;
  readingAt: string;
  takenAt: string;
  /** Null: the network does not give that metric. */
  metrics: Record<MetricName, number | null>;
  engagement: number | null;
};

export type DeliveryMetricsView = {
  deliveryId: string;
  accountId: string;
  account: string;
  provider: ProviderName;
  part: number;
  /** `waiting`: not sent yet, or its first reading is not due; `reading`: more readings to come; then why it stopped. */
  state: 'waiting' | 'reading' | 'done' | 'deleted' | 'unsupported';
  nextReadingAt: string | null;
  /** The next reading is due already (the job takes it on its next run). */
  nextReadingDue: boolean;
  stoppedAt: string | null;
  readings: MetricReadingView[];
};

/** A post's metric history per delivery (the post page, GET /api/v1/posts/{id}/metrics). */
export async function readPostMetrics(
  db: Executor,
  params: { workspaceId: string; postId: string; delaysMs: number[] },
): Promise<DeliveryMetricsView[]> {
  const { deliveries, snapshots } = await listPostMetricHistory(db, params);
  return deliveries.map((d) => ({
    deliveryId: d.deliveryId,
    accountId: d.accountId,
    account: d.handle,
    provider: d.provider,
    part: d.part,
    state: !d.tracked ? 'waiting' : (d.stoppedReason ?? 'reading'),
    nextReadingAt: d.nextDueAt,
    nextReadingDue: d.nextDue,
    stoppedAt: d.stoppedAt,
    readings: snapshots
      .filter((s) => s.deliveryId === d.deliveryId)
      .map((s) => {
        const metrics = Object.fromEntries(METRIC_NAMES.map((m) => [m, s[m] === null ? null : Number(s[m])])) as Record<
          MetricName,
          number | null
        >;
        const present = Object.fromEntries(Object.entries(metrics).filter(([, v]) => v !== null)) as PostMetrics;
        return {
          reading: Number(s.reading),
          label: readingLabel(params.delaysMs[Number(s.reading)], Number(s.reading)),
          readingAt: String(s.readingAt),
          takenAt: String(s.takenAt),
          metrics,
          engagement: engagementOf(present),
        };
      }),
  }));
}
