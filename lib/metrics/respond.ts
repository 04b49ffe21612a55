import type { Database } from '@/db/client';
import { checkMetricsToken } from './authorize';
import { scrapeMetrics } from './scrape';

/** GET /api/metrics for the web server's route and the worker's own listener: token check, then the scrape. */
export async function metricsResponse(request: Request, db: Database, token: string | undefined): Promise<Response> {
  const denied = checkMetricsToken(request, token);
  if (denied) return denied;
  const { body, contentType } = await scrapeMetrics(db);
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
