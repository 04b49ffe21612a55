import { runMigrations } from '@/db/migrate';
import { resolveDatabase } from './lib/database';

const database = await resolveDatabase();
try {
  await runMigrations(database.url);
  console.log('Migrations applied.');
} finally {
  await database.stop();
}
