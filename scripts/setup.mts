// npm run setup [-- --email <email> --workspace <name> [--name <name>] [--slug <slug>] [--time-zone <zone>]]
// Without options: prints a one-time setup token for /setup. With --email and --workspace: the first admin and
// workspace, headless (Docker, scripts), and a one-time link where the admin sets their password.
import { parseArgs } from 'node:util';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { setupCommand } from '@/lib/auth/setup-cli';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    workspace: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    'time-zone': { type: 'string' },
  },
});
const database = await resolveDatabase();
const { db, close } = createDatabase(database.url, { max: 2 });
try {
  await runMigrations(database.url);
  const origin = process.env.NEXTAUTH_URL || `http://localhost:${process.env.PORT || 3000}`;
  const { code, out } = await setupCommand(db, { ...values, timeZone: values['time-zone'] }, origin);
  for (const line of out) (code === 0 ? console.log : console.error)(line);
  process.exitCode = code;
} finally {
  await close();
  await database.stop();
}
