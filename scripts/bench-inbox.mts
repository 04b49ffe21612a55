// npm run bench:inbox [-- --items 50000 --runs 30]
// The inbox page's server time with 50,000 items (the target: under 200 ms); the work and its printout are benchInbox
// (scripts/lib/bench-inbox.ts), which `npm run bench` can call too.
import { parseArgs } from 'node:util';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { benchInbox } from './lib/bench-inbox';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: { items: { type: 'string', default: '50000' }, runs: { type: 'string', default: '30' } },
});

process.env.SEMEL_DATA_DIR ??= '.data/bench-inbox';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
const { db, close } = createDatabase(database.url, { max: 8 });
try {
  await benchInbox(db, { items: Number(values.items), runs: Number(values.runs) });
} finally {
  await close();
  await database.stop();
}
