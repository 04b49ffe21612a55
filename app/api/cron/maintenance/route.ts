import { getDb } from '@/db/client';
import { pruneExpiredLoginAttempts } from '@/lib/auth/throttle';
import { checkCronSecret } from '@/lib/cron/authorize';
import { pruneExpiredIdempotencyKeys } from '@/lib/idempotency/prune';
import { trackJob } from '@/lib/metrics/record';

export const dynamic = 'force-dynamic';

/** Housekeeping for cron hosts: deletes expired idempotency keys and sign-in attempts in batches. */
export async function POST(request: Request) {
  const denied = checkCronSecret(request);
  if (denied) return denied;
  const prunedIdempotencyKeys = await trackJob('prune-keys', () => pruneExpiredIdempotencyKeys(getDb()));
  const prunedLoginAttempts = await trackJob('prune-login-attempts', () => pruneExpiredLoginAttempts(getDb()));
  return Response.json({ prunedIdempotencyKeys, prunedLoginAttempts });
}
