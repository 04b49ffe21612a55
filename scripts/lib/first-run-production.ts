// The production path, as a self-hoster takes it after `npm run build`: npm start on an empty database with the
// required secrets; the setup token from the server log; setup, sign-in, a sandbox account connected through its
// OAuth consent page, an API key from Settings; a post through the public API goes out once.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describeAttempts, PublicApi, sandboxCopies } from './first-run-api';
import {
  chromiumPath,
  connectSandboxX,
  createApiKey,
  describePage,
  launchBrowser,
  setUpWithToken,
  signIn,
} from './first-run-browser';
import { freePort, newcomerEnv, startNpm, type Server } from './first-run-server';
import { onCleanup, Phase, until } from './first-run-steps';

const DIST_DIR = process.env.NEXT_DIST_DIR || '.next';
const COMPILED_START = '.build/scripts/with-db.mjs';
const BANNER = /workspace at\n\s+(\S+\/setup)\n[^\n]*setup token[^\n]*\n\s+(\S+)/;

/** What the production phase needs before it starts, as a message naming the fix; null when all is there. */
export function productionPrerequisites(): string | null {
  for (const file of [path.join(DIST_DIR, 'BUILD_ID'), COMPILED_START]) {
    if (!existsSync(file))
      return `${file} is missing: run \`npm run build\` first (the production path runs the build)`;
  }
  if (!chromiumPath()) return 'no Chromium: run `node scripts/ensure-browser.mjs` (or install /usr/bin/chromium)';
  return null;
}

export function describeBuild(): string {
  const minutes = Math.round((Date.now() - statSync(path.join(DIST_DIR, 'BUILD_ID')).mtimeMs) / 60_000);
  return `the build in ${DIST_DIR}, made ${minutes} min ago`;
}

export async function checkProductionPath(phase: Phase, preferredPort: number): Promise<void> {
  const port = await freePort(preferredPort);
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'semel-first-run-'));
  chmodSync(dataDir, 0o755); // as root, the embedded Postgres runs its binaries as the OS user `postgres`
  onCleanup(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));

  const database = await phase.step(
    process.env.DATABASE_URL
      ? 'an empty database beside DATABASE_URL'
      : 'an empty data directory (npm start brings up the embedded Postgres there)',
    () => emptyDatabase(),
  );
  const env: NodeJS.ProcessEnv = {
    ...newcomerEnv(),
    ...database.env,
    NODE_ENV: 'production',
    PORT: String(port),
    NEXTAUTH_URL: origin,
    // What production requires (lib/env.ts), fresh for this install.
    NEXTAUTH_SECRET: randomBytes(32).toString('base64'),
    APP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CRON_SECRET: randomBytes(24).toString('base64'),
    // Off by default in production; a self-hoster switches it on to try a post without a real network.
    SANDBOX_ENABLED: 'true',
    SEMEL_DATA_DIR: dataDir,
    MEDIA_DIR: path.join(dataDir, 'media'),
  };
  const server = startNpm('start', env);
  phase.context.push(() => `--- npm start output (last 4000 characters) ---\n${server.output().slice(-4000)}`);

  const banner = await phase.step('npm start prints a one-time setup token', () => printedSetup(server), 180_000);
  server.redact(banner.token, '<the setup token>');
  await phase.step(`npm start answers /api/health on ${origin}`, () =>
    until(async () => (await fetch(`${origin}/api/health`)).ok, server.gone),
  );

  const browser = await phase.step('Chromium starts', () => launchBrowser());
  onCleanup('close Chromium', () => browser.close());
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  phase.context.push(() => describePage(page));
  const admin = {
    name: 'First Admin',
    email: 'admin@first-run.test',
    password: `first run ${randomBytes(9).toString('base64url')}`,
  };
  await phase.step(`/signin leads to ${banner.url}; setup with the printed token`, () =>
    setUpWithToken(page, origin, banner, admin),
  );
  await phase.step('the new admin signs in', () => signIn(page, origin, admin));
  const handle = await phase.step('Accounts: connect a sandbox X account through its OAuth consent page', () =>
    connectSandboxX(page, origin),
  );
  const api = new PublicApi(origin, await phase.step('Settings → API: create a key', () => createApiKey(page, origin)));

  const account = await phase.step(`GET /api/v1/accounts lists ${handle}`, async () => {
    const found = (await api.accounts()).find((a) => a.handle === handle);
    if (!found) throw new Error(`${handle} is not among the workspace's accounts`);
    return found;
  });
  const post = await phase.step(`POST /api/v1/posts to ${handle}`, () => api.createPost(account, 'production'));
  phase.context.push(() => describeAttempts(dataDir, post.id));
  await phase.step('the scheduler sends it', () => api.untilSent(post.id, server.gone, 180_000), 190_000);
  await phase.step('the sandbox holds exactly one copy', async () => {
    const copies = await sandboxCopies(dataDir, post.text);
    if (copies !== 1) throw new Error(`the sandbox holds ${copies} copies of the post`);
  });
}

/** The setup URL and token from the banner the server prints at start while nobody has set up. */
async function printedSetup(server: Server): Promise<{ url: string; token: string }> {
  let match: RegExpExecArray | null = null;
  await until(async () => (match = BANNER.exec(server.output())) !== null, server.gone);
  return { url: match![1]!, token: match![2]! };
}

/**
 * With DATABASE_URL set: a new database beside it, dropped afterwards. Without: none, and npm start brings up the
 * embedded Postgres in the new (empty) data directory, as on a machine without Postgres.
 */
async function emptyDatabase(): Promise<{ env: Record<string, string> }> {
  const server = process.env.DATABASE_URL;
  if (!server) return { env: {} };
  const name = `semel_first_run_check_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  onCleanup(`drop the database ${name}`, async () => {
    const sql = postgres(server, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() } };
}
