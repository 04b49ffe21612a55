// npm run bench:analytics [-- --posts 10000 --readings 10 --runs 30]
// The analytics page's server time with 100,000 snapshots over 10,000 posts (the target: under 300 ms); the work and
// its printout are benchAnalytics (scripts/lib/bench-analytics.ts), which `npm run bench` can call too.
import { parseArgs } from 'node:util';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { benchAnalytics } from './lib/bench-analytics';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    readings: { type: 'string', default: '10' },
    runs: { type: 'string', default: '30' },
  },
});

process.env.SEMEL_DATA_DIR ??= '.data/bench-analytics';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
const { db, close } = createDatabase(database.url, { max: 8 });
try {
  await benchAnalytics(db, {
    posts: Number(values.posts),
    readings: Number(values.readings),
    runs: Number(values.runs),
  });
} finally {
  await close();
  await database.stop();
}
