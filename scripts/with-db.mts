// Runs a command (next dev / next start) against a ready database: the embedded Postgres when
// DATABASE_URL is unset, migrated (and seeded with --seed). Stops what it started on exit.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDatabase } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { demoPostsOptions, seedDemoData } from '@/scripts/seed/seed';
import { appOrigin } from '@/lib/providers/base-url';
import { getEnvOrExit } from '@/lib/env-exit';
import { resolveDatabase } from './lib/database';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const flags = new Set(split === -1 ? [] : args.slice(0, split));
const command = split === -1 ? args : args.slice(split + 1);
if (command.length === 0) {
  console.error('usage: tsx scripts/with-db.mts [--seed] [--fresh] -- <command...>');
  process.exit(2);
}

const env = getEnvOrExit(); // an invalid environment: a short message naming each variable, exit 1
const database = await resolveDatabase({ fresh: flags.has('--fresh') });
await runMigrations(database.url);
const nextauthUrl = process.env.NEXTAUTH_URL || `http://localhost:${env.PORT}`;
if (flags.has('--seed')) {
  const { db, close } = createDatabase(database.url, { max: 2 });
  await seedDemoData(db, {
    password: env.DEMO_PASSWORD,
    encryptionKey: env.APP_ENCRYPTION_KEY,
    posts: demoPostsOptions(env, appOrigin({ ...process.env, NEXTAUTH_URL: nextauthUrl })),
    analytics: { delaysMs: env.ANALYTICS_READ_DELAYS_MS },
  });
  await close();
}
const dataDir = path.resolve(env.SEMEL_DATA_DIR);
mkdirSync(dataDir, { recursive: true });
// Lets tests and tools find the database this server uses.
writeFileSync(path.join(dataDir, 'database-url'), database.url);

const logFile = env.LOG_FILE ? path.resolve(env.LOG_FILE) : undefined;
const child = spawn(command[0]!, command.slice(1), {
  stdio: logFile ? ['inherit', 'pipe', 'pipe'] : 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    NEXTAUTH_URL: nextauthUrl,
  },
});
if (logFile) {
  // Everything the server prints, Next.js' own error output included, also goes to LOG_FILE (appended).
  mkdirSync(path.dirname(logFile), { recursive: true });
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    appendFileSync(logFile, chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    appendFileSync(logFile, chunk);
  });
}
let stopping = false;
const shutdown = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
child.on('exit', async (code, signal) => {
  await database.stop();
  process.exit(code ?? (signal ? 0 : 1));
});
