// One publisher process for the chaos run: publishes whatever is due, forever, until killed.
import { createDatabase } from '@/db/client';
import { getNextWakeAt } from '@/db/queries/publishing';
import { rateLimitsFromEnv } from '@/lib/publishing/config';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { newWorkerId } from '@/lib/publishing/worker';

const { db } = createDatabase(process.env.DATABASE_URL!, { max: 6 });
const options = {
  workerId: newWorkerId(),
  batchSize: 200,
  concurrency: Number(process.env.CHAOS_CONCURRENCY ?? 32),
  leaseMs: Number(process.env.CHAOS_LEASE_MS ?? 8_000),
  callTimeoutMs: Number(process.env.CHAOS_CALL_TIMEOUT_MS ?? 1_500),
  budgetMs: 5_000,
  encryptionKey: process.env.APP_ENCRYPTION_KEY!,
  rateLimits: rateLimitsFromEnv(undefined),
  reconcileDelayMs: 500,
};
for (;;) {
  const summary = await publishDueDeliveries(db, { ...options, rateLimits: {} });
  if (summary.claimed === 0) {
    const next = await getNextWakeAt(db);
    const wait = next ? Math.min(Math.max(next.getTime() - Date.now(), 20), 250) : 250;
    await new Promise((r) => setTimeout(r, wait));
  }
}
