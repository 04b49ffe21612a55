import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { demoPostsOptions, seedDemoData } from '@/scripts/seed/seed';
import { appOrigin } from '@/lib/providers/base-url';
import { getEnv } from '@/lib/env';
import { resolveDatabase } from './lib/database';

const database = await resolveDatabase();
const { db, close } = createDatabase(database.url);
try {
  await runMigrations(database.url);
  const env = getEnv();
  await seedDemoData(db, {
    password: env.DEMO_PASSWORD,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    posts: demoPostsOptions(env, appOrigin()),
    analytics: { delaysMs: env.ANALYTICS_READ_DELAYS_MS },
  });
  console.log('Demo data ready: workspaces "demo" and "other".');
} finally {
  await close();
  await database.stop();
}
