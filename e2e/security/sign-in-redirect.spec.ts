import { expect, test } from '@playwright/test';
import { e2eSql } from '../support/db';

// Finding 4: each of these used to send the user to evil.example after signing in.
for (const callbackUrl of ['/\\evil.example', '/%09/evil.example', '//evil.example', 'https://evil.example/']) {
  test(`callbackUrl=${callbackUrl} stays on this site after sign-in`, async ({ page, baseURL }) => {
    const offSite: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).hostname.includes('evil.example')) offSite.push(request.url());
    });
    await page.goto(`/signin?callbackUrl=${callbackUrl}`);
    await page.getByLabel('Email').fill('manager@demo.test');
    await page.getByLabel('Password').fill('semel-demo');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${baseURL}/queue`);
    // Signed in, the sign-in page redirects at once (server side): same rule.
    await page.goto(`/signin?callbackUrl=${callbackUrl}`);
    await expect(page).toHaveURL(`${baseURL}/queue`);
    expect(offSite).toEqual([]);
  });
}

// Finding 3: a forged X-Forwarded-For no longer gives each guess a fresh address (no TRUSTED_PROXIES here).
test('rotating a forged X-Forwarded-For does not escape the per-address limit', async ({ page }) => {
  const email = `forger-${Date.now()}@nowhere.test`;
  for (let i = 0; i < 11; i++) {
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': `203.0.113.${i + 1}` });
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(`guess-${i}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const expected = i < 10 ? 'Wrong email or password.' : /Too many failed sign-in attempts/;
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(expected);
  }
  const rows = await e2eSql()<{ ip: string }[]>`select distinct ip from login_attempts where email = ${email}`;
  expect(rows.map((r) => r.ip)).toEqual(['127.0.0.1']);
});
