import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const scriptNonce = (csp: string) => /script-src[^;]*'nonce-([^']+)'/.exec(csp)?.[1];

test('every page and route carries the security headers and a fresh script nonce', async ({ request }) => {
  const nonces = new Set<string>();
  for (const path of ['/signin', '/signin', '/queue', '/api/health', '/no-such-page']) {
    const response = await request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toContain("'strict-dynamic'");
    // A production build never allows eval or inline scripts without the nonce.
    expect(csp, path).not.toContain('unsafe-eval');
    expect(/script-src[^;]*'unsafe-inline'/.test(csp), path).toBe(false);
    nonces.add(scriptNonce(csp)!);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    // Served over plain http here: no HSTS.
    expect(headers['strict-transport-security'], path).toBeUndefined();
  }
  expect(nonces.size).toBe(5);

  // The page's scripts carry this response's nonce.
  const page = await request.get('/signin');
  const nonce = scriptNonce(page.headers()['content-security-policy']!);
  expect(await page.text()).toContain(`nonce="${nonce}"`);
});

test('HSTS is sent when the app is served over https (behind a TLS proxy)', async ({ request }) => {
  const response = await request.get('/signin', { headers: { 'x-forwarded-proto': 'https' } });
  expect(response.headers()['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
});

/** Records CSP violations, uncaught errors and console errors for the whole test. */
function watchForProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    // The app has no favicon yet; Chromium's automatic /favicon.ico request is not the app's doing.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
      problems.push(`console: ${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

test('the app works under the CSP: signing in and every dashboard page with no violation', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const problems = watchForProblems(page);

  await signIn(page, 'admin@demo.test');
  expect(await violations(page)).toEqual([]);

  // Compose (client-side form, React Query) so the post page has something to show.
  const text = `CSP check ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  const [post] = await e2eSql()<{ id: string }[]>`select id from posts where text = ${text}`;

  const pages: [string, RegExp][] = [
    ['/queue', /Queue/],
    ['/review', /Review/],
    ['/accounts', /Accounts/],
    ['/sandbox', /Sandbox/],
    ['/settings', /Settings/],
    ['/settings/api', /API/],
    [`/posts/${post!.id}`, /./],
    ['/compose', /Compose/],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading);
    expect(await violations(page), path).toEqual([]);
  }
  // Client-side navigation (scripts loaded by the nonce'd bootstrap) works too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queue' }).click();
  await expect(page).toHaveURL(/\/queue$/);
  await expect(page.getByTestId('queue-row').filter({ hasText: text })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  expect(problems).toEqual([]);

  // And the policy is enforced: injected markup's inline handler does not run (the usual XSS vector).
  const ran = await page.evaluate(() => {
    const holder = document.createElement('div');
    holder.innerHTML = '<button id="injected" onclick="window.__injected = true">x</button>';
    document.body.append(holder);
    document.getElementById('injected')!.click();
    return Boolean((window as unknown as { __injected?: boolean }).__injected);
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations(page)).toEqual([expect.stringContaining('script-src')]);
});
