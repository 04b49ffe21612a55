import { getDb } from '@/db/client';
import { checkCronSecret } from '@/lib/cron/authorize';
import { trackJob } from '@/lib/metrics/record';
import { reconcileOptionsFromEnv } from '@/lib/reconcile/options';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

/** Settles ambiguous deliveries (cron hosts); concurrent calls are safe: one reconciler per delivery. */
export async function POST(request: Request) {
  const denied = checkCronSecret(request);
  if (denied) return denied;
  return Response.json(await trackJob('reconcile', () => reconcileAmbiguousDeliveries(getDb(), reconcileOptionsFromEnv())));
}
