// What the production path's admin does in a browser: set up with the token from the server log, sign in, connect
// a sandbox account through the network's OAuth consent page, create an API key. Same selectors as the e2e specs.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium where present (as playwright.config.ts), else Playwright's own; null when neither is there. */
export function chromiumPath(): string | null {
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  const own = chromium.executablePath();
  return existsSync(own) ? own : null;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath() ?? undefined,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

export type Admin = { name: string; email: string; password: string };

/** /signin on an empty install leads to /setup; the form, filled with the printed token, creates admin and workspace. */
export async function setUpWithToken(
  page: Page,
  origin: string,
  printed: { url: string; token: string },
  admin: Admin,
): Promise<void> {
  await page.goto(`${origin}/signin`);
  await page.waitForURL(printed.url);
  await page.getByLabel('Setup token').fill(printed.token);
  await page.getByLabel('Your name').fill(admin.name);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByLabel('Workspace name').fill('First run');
  await page.getByLabel('Slug').fill('first-run');
  await page.getByLabel('Time zone').selectOption('UTC');
  await page.getByRole('button', { name: 'Set up Semel' }).click();
  await page.getByRole('status').filter({ hasText: 'Semel is set up.' }).waitFor();
}

export async function signIn(page: Page, origin: string, admin: Admin): Promise<void> {
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${origin}/queue`);
}

/** Accounts → "Connect with X (sandbox)" → the sandbox's consent page → back on /accounts; returns the handle. */
export async function connectSandboxX(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/accounts`);
  await page
    .getByRole('region', { name: 'Connect with X' })
    .getByRole('link', { name: 'Connect with X (sandbox)' })
    .click();
  await page.waitForURL(/\/api\/sandbox\/x\/oauth\/authorize\?/);
  await page.getByRole('radio', { name: 'A new sandbox user' }).check();
  await page.getByRole('button', { name: 'Authorize Semel' }).click();
  await page.waitForURL(/\/accounts\?oauth=/);
  if (new URL(page.url()).searchParams.get('oauth') !== 'connected')
    throw new Error(`the OAuth connect came back as ${page.url()}`);
  const status = page.getByRole('status').filter({ hasText: /^Connected @\S+ on X\.$/ });
  const handle = /Connected (@\S+) on X\./.exec((await status.textContent()) ?? '')?.[1];
  if (!handle) throw new Error('no "Connected @… on X." on /accounts');
  return handle;
}

/** Settings → API: a new key, shown once. */
export async function createApiKey(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/settings/api`);
  await page.getByLabel('Key name').fill('first-run check');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const token = ((await page.getByTestId('new-api-key').textContent()) ?? '').trim();
  if (!/^sm_live_/.test(token)) throw new Error(`the new key reads "${token.slice(0, 12)}…", not sm_live_…`);
  return token;
}

/** Where the browser was and what it showed, for a failure report. */
export async function describePage(page: Page): Promise<string> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch(() => '(no page text)');
  return `--- the browser was on ${page.url()} ---\n${text.slice(0, 1500)}`;
}
