// One publisher + reconciler process for the chaos run: publishes what is due and settles what is ambiguous, until killed.
import { createDatabase } from '@/db/client';
import { getNextWakeAt } from '@/db/queries/publishing';
import { rateLimitsFromEnv } from '@/lib/publishing/config';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { newWorkerId } from '@/lib/publishing/worker';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';

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
  origin: process.env.CHAOS_SANDBOX_ORIGIN,
};
const reconcile = {
  workerId: options.workerId, batchSize: 50, leaseMs: options.leaseMs, readTimeoutMs: options.callTimeoutMs,
  recheckDelayMs: Number(process.env.CHAOS_RECHECK_MS ?? 1_000), windowBeforeMs: 120_000, maxUnreadable: 3, releaseMarginMs: 5_000,
  mastodonKeyWindowMs: 55 * 60_000, encryptionKey: options.encryptionKey, origin: options.origin,
};
for (;;) {
  const summary = await publishDueDeliveries(db, { ...options, rateLimits: {} });
  const settled = await reconcileAmbiguousDeliveries(db, reconcile);
  if (summary.claimed === 0 && settled.checked === 0) {
    const next = await getNextWakeAt(db);
    const wait = next ? Math.min(Math.max(next.getTime() - Date.now(), 20), 250) : 250;
    await new Promise((r) => setTimeout(r, wait));
  }
}
