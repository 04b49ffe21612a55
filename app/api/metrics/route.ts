import { getDb } from '@/db/client';
import { getEnv } from '@/lib/env';
import { metricsResponse } from '@/lib/metrics/respond';

export const dynamic = 'force-dynamic';

/**
 * Prometheus scrape target (off without METRICS_TOKEN). Counters are this process's own: scrape every web
 * instance here and every worker on its METRICS_PORT; the delivery gauges come from the shared database.
 */
export async function GET(request: Request) {
  return metricsResponse(request, getDb(), getEnv().METRICS_TOKEN);
}
