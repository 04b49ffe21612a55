import type { Database } from '@/db/client';
import { getDeliveryStatusCounts } from '@/db/queries/metrics';
import { deliveryStatusEnum } from '@/db/schema';
import { metrics } from './registry';

const REVIEW_STATUSES = new Set(['ambiguous', 'needs_review']);

/** The Prometheus text exposition: this process's counters plus gauges read from the database now. */
export async function scrapeMetrics(db: Database): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  const rows = await getDeliveryStatusCounts(db);
  const counts = new Map(rows.map((r) => [r.status, r.count]));
  // Every status is exported, 0 included, so a series never vanishes and rate()/alerts stay defined.
  for (const status of deliveryStatusEnum.enumValues) m.deliveries.set({ status }, counts.get(status) ?? 0);
  m.ambiguous.set(counts.get('ambiguous') ?? 0);
  m.oldestAmbiguousAge.set(rows.find((r) => r.status === 'ambiguous')?.oldestAmbiguousSeconds ?? 0);
  m.reviewQueue.set(rows.filter((r) => REVIEW_STATUSES.has(r.status)).reduce((n, r) => n + r.count, 0));
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
