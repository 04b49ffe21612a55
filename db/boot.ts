import path from 'node:path';
import { getEnv } from '@/lib/env';
import { startEmbeddedPostgres } from './embedded';
import { runMigrations } from './migrate';

/** Server start: validate env, make sure a database is there (embedded if DATABASE_URL is unset), migrate. */
export async function bootServer(): Promise<void> {
  const env = getEnv(); // invalid configuration stops the server here, naming the variable to set
  if (!process.env.DATABASE_URL) {
    // Started without the npm scripts (e.g. `npx next dev`): bring up the embedded Postgres here.
    const database = await startEmbeddedPostgres(path.join(env.POSTONCE_DATA_DIR, 'postgres'));
    process.env.DATABASE_URL = database.url;
    if (database.owned) process.once('exit', () => void database.stop());
  }
  await runMigrations(process.env.DATABASE_URL);
  if (env.SCHEDULER_ENABLED) {
    startHousekeeping();
    await startPublishing();
  }
}

/** The in-process scheduler: publishes within a second of the due time (DESIGN §6). */
async function startPublishing() {
  const { getDb, getSql } = await import('./client');
  const { startScheduler } = await import('@/lib/publishing/scheduler');
  const { publishDueDeliveries } = await import('@/lib/publishing/publish-due');
  const { reconcileAmbiguousDeliveries } = await import('@/lib/reconcile/reconcile');
  const { publisherOptionsFromEnv } = await import('@/lib/publishing/worker');
  const { reconcileOptionsFromEnv } = await import('@/lib/reconcile/options');
  const publishing = publisherOptionsFromEnv();
  const reconciling = reconcileOptionsFromEnv();
  startScheduler(getDb(), getSql(), [(db) => publishDueDeliveries(db, publishing), (db) => reconcileAmbiguousDeliveries(db, reconciling)]);
}

/** Self-hosted: prune expired idempotency keys and sign-in attempts hourly (cron hosts call /api/cron/maintenance instead). */
function startHousekeeping() {
  const run = async () => {
    try {
      const { getDb } = await import('./client');
      const { pruneExpiredIdempotencyKeys } = await import('@/lib/idempotency/prune');
      const { pruneExpiredLoginAttempts } = await import('@/lib/auth/throttle');
      await pruneExpiredIdempotencyKeys(getDb());
      await pruneExpiredLoginAttempts(getDb());
    } catch (error) {
      const { logger } = await import('@/lib/logging/logger');
      logger.warn({ err: error }, 'housekeeping failed; will retry');
    }
  };
  setInterval(run, 60 * 60 * 1000).unref();
}
