// npm run worker: every background job (publish, reconcile, the hourly pruning) without a web server, for deployments
// that run web and workers apart (web with SCHEDULER_ENABLED=false, or both: any number of each on one Postgres).
// The same job registry and scheduler as the web process's in-process one (lib/jobs/background.ts), the
// same validated environment. Database: DATABASE_URL, or the embedded Postgres under SEMEL_DATA_DIR
// (shared with `npm run dev` when that is running). SIGTERM/SIGINT: finish the pass in flight, then exit.
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { getEnv } from '@/lib/env';
import { startBackgroundJobs } from '@/lib/jobs/background';
import { logger } from '@/lib/logging/logger';
import { startMetricsServer } from '@/lib/metrics/server';
import { resolveDatabase } from './lib/database';

const env = getEnv(); // fails fast, naming the variable to set
const database = await resolveDatabase();
await runMigrations(database.url);
const pool = createDatabase(database.url, { max: 10 });
const work = startBackgroundJobs(pool.db, pool.sql);
if (env.METRICS_PORT) await startMetricsServer(pool.db, { port: env.METRICS_PORT, token: env.METRICS_TOKEN }); // this process's counters
logger.info(
  { embeddedDatabase: database.owned, callTimeoutMs: env.PUBLISH_CALL_TIMEOUT_MS, leaseMs: env.PUBLISH_LEASE_MS },
  'worker started',
);

let stopping = false;
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker stopping: finishing the pass in flight');
  // Whatever is not recorded by then is safe: leases run out, and a started call becomes ambiguous and is reconciled.
  await work.stop(env.PUBLISH_LEASE_MS);
  await pool.close();
  await database.stop();
  logger.info('worker stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
