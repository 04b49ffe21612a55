import { getDb } from '@/db/client';
import { checkCronSecret } from '@/lib/cron/authorize';
import { trackJob } from '@/lib/metrics/record';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { publisherOptionsFromEnv } from '@/lib/publishing/worker';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

/**
 * For cron hosts (SCHEDULER_ENABLED=false): claims and publishes what is due. Any number of concurrent
 * calls and instances are safe: claims are atomic and outcomes fenced.
 */
export async function POST(request: Request) {
  const denied = checkCronSecret(request);
  if (denied) return denied;
  const summary = await trackJob('publish', () => publishDueDeliveries(getDb(), publisherOptionsFromEnv()));
  return Response.json(summary);
}
