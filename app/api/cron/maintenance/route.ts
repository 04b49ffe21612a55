import { getDb } from '@/db/client';
import { checkCronSecret } from '@/lib/cron/authorize';
import { pruneExpiredIdempotencyKeys } from '@/lib/idempotency/prune';
import { trackJob } from '@/lib/metrics/record';

export const dynamic = 'force-dynamic';

/** Housekeeping for cron hosts: deletes expired idempotency keys in batches. */
export async function POST(request: Request) {
  const denied = checkCronSecret(request);
  if (denied) return denied;
  const prunedIdempotencyKeys = await trackJob('prune-keys', () => pruneExpiredIdempotencyKeys(getDb()));
  return Response.json({ prunedIdempotencyKeys });
}
