import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import postgres from 'postgres';
import { postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

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
const CRON_SECRET = 'e2e-cron-secret-0123456789';
const ADMIN = { email: 'ada@agency.test', password: 'violet kettle harbour 42' };

// The two tests share one server and one database: the second starts where the first's setup left it.
test.describe.configure({ mode: 'serial' });

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
      CRON_SECRET,
      SCHEDULER_ENABLED: 'false',
      // A production install with the sandbox network switched on, so a post can go out here.
      SANDBOX_ENABLED: 'true',
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
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByLabel('Workspace name').fill('Agency');
  await page.getByLabel('Slug').fill('agency');
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
  await signInHere(page, ADMIN.email, ADMIN.password);
  // The setup is spent: the same token cannot set up again.
  const replay = await page.request.post(`${ORIGIN}/setup`, { form: { token }, maxRedirects: 0 });
  expect([404, 405, 403]).toContain(replay.status());
  expect(await countsOnSetupDatabase()).toEqual({ users: 1, workspaces: 1 });
});

test('a team adopts it: the admin creates "Acme" and invites a manager, who signs up from the email, enrols TOTP, signs back in with a code and posts once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await browser.newContext({ baseURL: ORIGIN });
  const page = await admin.newPage();
  await signInHere(page, ADMIN.email, ADMIN.password);

  // A workspace for the client, with a sandbox account to post to.
  await page.getByRole('banner').getByRole('link', { name: 'New workspace' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Acme');
  await page.getByLabel('Slug', { exact: true }).fill('acme');
  await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Workspace' })).toHaveValue('acme');
  const handle = await connectSandboxAccount(page, 'Mastodon');

  // The invitation: one email in the Outbox (no SMTP_URL), its link single use.
  const manager = { email: `mia-${randomUUID().slice(0, 6)}@acme.test`, password: 'a long enough passphrase' };
  await page.goto('/settings');
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('textbox', { name: 'Email', exact: true }).fill(manager.email);
  await members.getByRole('combobox', { name: 'Role', exact: true }).selectOption('manager');
  await members.getByRole('button', { name: 'Send invitation' }).click();
  await expect(members.getByText(`Invitation sent to ${manager.email}.`)).toBeVisible();
  await page.goto('/outbox');
  const emails = page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: manager.email });
  await expect(emails).toHaveCount(1);
  await emails.locator('summary').click();
  const link = /https?:\/\/\S+\/invite\/\S+/.exec(await emails.locator('pre').innerText())![0];
  await admin.close();

  // The manager, in a fresh browser: signs up from the link and lands in Acme.
  const invitee = await browser.newContext({ baseURL: ORIGIN });
  const other = await invitee.newPage();
  await other.goto(new URL(link).pathname);
  await expect(other.getByRole('heading', { name: 'Join Acme' })).toBeVisible();
  await other.getByLabel('Your name').fill('Mia Manager');
  await other.getByLabel('Password').fill(manager.password);
  await other.getByRole('button', { name: 'Create account and join' }).click();
  await expect(other).toHaveURL(`${ORIGIN}/queue`);
  await expect(other.getByRole('banner')).toContainText('Acme');

  // Two-factor sign-in: enrol TOTP from the QR page, sign out, and back in with password + code.
  await other.goto('/two-factor');
  const secret = (await other.getByTestId('totp-secret').textContent())!.trim();
  const codeAt = (steps: number) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
  await other.getByLabel('Code from your app').fill(codeAt(0));
  await other.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(other.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await other.getByRole('link', { name: 'I saved them — continue' }).click();
  await other.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(other).toHaveURL(/\/signin\?signedOut=1$/);
  await other.getByLabel('Email').fill(manager.email);
  await other.getByLabel('Password').fill(manager.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other.getByLabel('Authentication code')).toBeVisible(); // the password alone is not enough
  // The confirming code's step is spent: the next step's code (accepted a step early) signs in.
  await other.getByLabel('Authentication code').fill(codeAt(1));
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other).toHaveURL(`${ORIGIN}/queue`);

  // A post, published by the worker pass a cron host would call: it goes out once.
  const text = `Hello from Acme ${randomUUID().slice(0, 8)}`;
  await postNowAndOpen(other, handle, text);
  const publish = await other.request.post(`${ORIGIN}/api/cron/publish`, {
    headers: { authorization: `Bearer ${CRON_SECRET}` },
  });
  expect(publish.ok()).toBe(true);
  await expect
    .poll(async () =>
      (await setupDb!`select status from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`).map(
        (r) => r.status,
      ),
    )
    .toEqual(['sent']);
  const copies = await setupDb!`select count(*)::int as n from sandbox.posts where text = ${text}`;
  expect(copies[0]!.n).toBe(1);
  await invitee.close();
});

/** Signs in on this spec's own server (the support helper signs in on the suite's). */
async function signInHere(page: Page, email: string, password: string) {
  await page.goto(`${ORIGIN}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${ORIGIN}/queue`);
}

async function countsOnSetupDatabase() {
  const [row] = await setupDb!<[{ users: number; workspaces: number }]>`
    select (select count(*)::int from users) as users, (select count(*)::int from workspaces) as workspaces`;
  return { users: row!.users, workspaces: row!.workspaces };
}
