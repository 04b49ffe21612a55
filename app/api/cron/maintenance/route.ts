import { getDb } from '@/db/client';
import { pruneExpiredLoginAttempts } from '@/lib/auth/throttle';
import { checkCronSecret } from '@/lib/cron/authorize';
import { pruneExpiredIdempotencyKeys } from '@/lib/idempotency/prune';

export const dynamic = 'force-dynamic';

/** Housekeeping for cron hosts: deletes expired idempotency keys and sign-in attempts in batches. */
export async function POST(request: Request) {
  const denied = checkCronSecret(request);
  if (denied) return denied;
  const prunedIdempotencyKeys = await pruneExpiredIdempotencyKeys(getDb());
  const prunedLoginAttempts = await pruneExpiredLoginAttempts(getDb());
  return Response.json({ prunedIdempotencyKeys, prunedLoginAttempts });
}
