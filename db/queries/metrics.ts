import { sql } from 'drizzle-orm';
import type { Executor } from '../client';
import type { DeliveryStatus } from '../schema';

export type DeliveryStatusCount = { status: DeliveryStatus; count: number; oldestAmbiguousSeconds: number | null };

/**
 * Deliveries by status across every workspace (an operator's view, for /api/metrics), in one grouped
 * query. For ambiguous ones also the age of the oldest: since its latest move into `ambiguous`.
 */
export async function getDeliveryStatusCounts(db: Executor): Promise<DeliveryStatusCount[]> {
  const result = await db.execute(sql`
    select d.status, count(*)::int as count,
      extract(epoch from now() - min(case when d.status = 'ambiguous' then (
        select max(e.created_at) from delivery_events e
        where e.delivery_id = d.id and e.to_status = 'ambiguous' and e.from_status is distinct from 'ambiguous'
      ) end))::float8 as "oldestAmbiguousSeconds"
    from deliveries d
    group by d.status`);
  return [...result] as DeliveryStatusCount[];
}
