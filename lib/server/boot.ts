import path from 'node:path';
import { startEmbeddedPostgres } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';
import { getEnv } from '@/lib/env';

/**
 * Server start (instrumentation.ts): validate env, make sure a database is there (embedded if DATABASE_URL is
 * unset), migrate, reseal legacy credentials, print a setup token on a fresh install, then start the background
 * jobs unless SCHEDULER_ENABLED=false.
 */
export async function bootServer(): Promise<void> {
  const env = getEnv(); // invalid configuration stops the server here, naming the variable to set
  if (!process.env.DATABASE_URL) {
    // Started without the npm scripts (e.g. `npx next dev`): bring up the embedded Postgres here.
    const database = await startEmbeddedPostgres(path.join(env.SEMEL_DATA_DIR, 'postgres'));
    process.env.DATABASE_URL = database.url;
    if (database.owned) process.once('exit', () => void database.stop());
  }
  await runMigrations(process.env.DATABASE_URL);
  // Imported only now: the pool reads DATABASE_URL, which may have just been set above.
  const { getDb, getSql } = await import('@/db/client');
  const { resealLegacyCredentials } = await import('@/lib/providers/reseal-credentials');
  // Credentials sealed before they were bound to their account (v1) become v2 before anything reads them.
  await resealLegacyCredentials(getDb(), env.APP_ENCRYPTION_KEY);
  // A fresh install (no users): a one-time setup token for /setup, printed once per start, never logged elsewhere.
  const { issueSetupToken, setupBanner } = await import('@/lib/auth/first-run');
  const setupToken = await issueSetupToken(getDb());
  if (setupToken) process.stdout.write(`${setupBanner(setupToken, env.NEXTAUTH_URL)}\n`);
  if (env.SCHEDULER_ENABLED) {
    // The same registry and scheduler as `npm run worker` (lib/jobs/background.ts).
    const { startBackgroundJobs } = await import('@/lib/jobs/background');
    startBackgroundJobs(getDb(), getSql());
  }
}
