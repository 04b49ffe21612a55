import { getDb } from '@/db/client';
import { readinessResponse } from '@/lib/health/readiness';

export const dynamic = 'force-dynamic';

/** Readiness: the database answers and this build's migrations are all applied (503 problem+json otherwise). */
export async function GET() {
  return readinessResponse(getDb());
}
