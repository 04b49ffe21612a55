import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { e2eSql } from '../support/db';

// The suite's server runs on a seeded database; the first run needs an empty one. This spec starts a second
// server of the same production build on a database of its own (created here, beside the suite's), and reads the
// setup token from that server's log, as an operator would.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 50;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DATABASE = `semel_first_run_${PORT}`;

let server: ChildProcess | undefined;
let setupDb: postgres.Sql | undefined;
let log = '';
const TOKEN_LINE = /setup token[^\n]*\n\s+(\S+)/;

/** The suite's database URL with this spec's database name: same server, an empty database. */
function setupDatabaseUrl() {
  const url = new URL(readFileSync(path.join(process.env.E2E_DATA_DIR ?? '.data/e2e', 'database-url'), 'utf8').trim());
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const sql = e2eSql();
  await sql.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await sql.unsafe(`create database ${DATABASE}`);
  const databaseUrl = setupDatabaseUrl();
  setupDb = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  server = spawn('npx', ['next', 'start', '-p', String(PORT)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      NEXTAUTH_URL: ORIGIN,
      NEXTAUTH_SECRET: 'e2e-only-secret-e2e-only-secret-0123456789',
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      CRON_SECRET: 'e2e-cron-secret-0123456789',
      SCHEDULER_ENABLED: 'false',
      SEMEL_DATA_DIR: `${process.env.E2E_DATA_DIR ?? '.data/e2e'}/first-run`,
      LOG_FILE: '',
    },
  });
  server.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 100_000;
  while (!TOKEN_LINE.test(log)) {
    if (Date.now() > deadline) throw new Error(`the first-run server printed no setup token:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  await setupDb?.end({ timeout: 5 });
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await e2eSql().unsafe(`drop database if exists ${DATABASE} with (force)`);
});

test('first run: sign-in leads to /setup; without the printed token it is refused, with it it works once', async ({
  page,
}) => {
  const token = TOKEN_LINE.exec(log)![1]!;
  await page.goto(`${ORIGIN}/signin`);
  await expect(page).toHaveURL(`${ORIGIN}/setup`);
  await expect(page.getByRole('heading', { name: 'Set up Semel' })).toBeVisible();

  await page.getByLabel('Your name').fill('Ada Admin');
  await page.getByLabel('Email').fill('ada@acme.test');
  await page.getByLabel('Password').fill('violet kettle harbour 42');
  await page.getByLabel('Workspace name').fill('Acme');
  await page.getByLabel('Slug').fill('acme');
  await page.getByLabel('Time zone').selectOption('Europe/Berlin');
  // No token: refused beside the field, nothing written.
  await page.getByRole('button', { name: 'Set up Semel' }).click();
  await expect(page.getByText('This is not the setup token from the server log')).toBeVisible();
  await expect(page.getByLabel('Setup token')).toHaveAttribute('aria-invalid', 'true');
  expect(await countsOnSetupDatabase()).toEqual({ users: 0, workspaces: 0 });

  await page.getByLabel('Setup token').fill(token);
  await page.getByRole('button', { name: 'Set up Semel' }).click();
  await expect(page.getByRole('status')).toHaveText('Semel is set up. Sign in with your email and password.');
  expect(await countsOnSetupDatabase()).toEqual({ users: 1, workspaces: 1 });

  // Afterwards /setup is gone, and the admin signs in.
  const again = await page.goto(`${ORIGIN}/setup`);
  expect(again!.status()).toBe(404);
  await page.goto(`${ORIGIN}/signin`);
  await page.getByLabel('Email').fill('ada@acme.test');
  await page.getByLabel('Password').fill('violet kettle harbour 42');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${ORIGIN}/queue`);
});

async function countsOnSetupDatabase() {
  const [row] = await setupDb!<[{ users: number; workspaces: number }]>`
    select (select count(*)::int from users) as users, (select count(*)::int from workspaces) as workspaces`;
  return { users: row!.users, workspaces: row!.workspaces };
}
