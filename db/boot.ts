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
    // The same task list and scheduler as `npm run worker` (lib/publishing/background.ts).
    const { getDb, getSql } = await import('./client');
    const { startBackgroundWork } = await import('@/lib/publishing/background');
    startBackgroundWork(getDb(), getSql());
  }
}
