import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

test('Settings → Security: signing out the phone ends it there; "everywhere else" keeps this device', async ({
  browser,
}) => {
  const laptop = await browser.newContext();
  const phone = await browser.newContext({ userAgent: IPHONE });
  const desktop = await browser.newContext({ userAgent: FIREFOX });
  try {
    const [onLaptop, onPhone, onDesktop] = [await laptop.newPage(), await phone.newPage(), await desktop.newPage()];
    await signIn(onPhone, 'admin@demo.test');
    await signIn(onDesktop, 'admin@demo.test');
    await signIn(onLaptop, 'admin@demo.test');

    await onLaptop.goto('/settings');
    await onLaptop.getByRole('link', { name: 'Open security →' }).click();
    await expect(onLaptop).toHaveURL(/\/settings\/security$/);
    const list = onLaptop.getByRole('list', { name: 'Sessions' });
    const phoneRow = list.getByRole('listitem', { name: /Safari on iPhone/ });
    await expect(phoneRow).toBeVisible();
    await expect(list.getByRole('listitem').first()).toContainText('This device');

    await phoneRow.getByRole('button', { name: /^Sign out Safari on iPhone/ }).click();
    await expect(phoneRow).toHaveCount(0);
    const agents = e2eSql();
    const [{ n: phones }] = await agents<{ n: number }[]>`
      select count(*)::int as n from sessions where user_agent = ${IPHONE}`;
    expect(phones).toBe(0);
    // The phone still holds its cookie; the server no longer knows the session.
    await onPhone.goto('/queue');
    await expect(onPhone).toHaveURL(/\/signin/);
    await onDesktop.goto('/queue');
    await expect(onDesktop).toHaveURL(/\/queue$/);

    await onLaptop.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(onLaptop.getByRole('status').filter({ hasText: /Signed out \d+ other sessions?\./ })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('listitem')).toContainText('This device');
    await onDesktop.goto('/queue');
    await expect(onDesktop).toHaveURL(/\/signin/);
    await onLaptop.goto('/queue');
    await expect(onLaptop).toHaveURL(/\/queue$/);
  } finally {
    await laptop.close();
    await phone.close();
    await desktop.close();
  }
});

test('an idle session ends: aged past SESSION_IDLE_HOURS in the database, the next page load signs out', async ({
  page,
}) => {
  await signIn(page, 'viewer@demo.test');
  const db = e2eSql();
  await db`update sessions set last_seen_at = now() - interval '25 hours'
    where user_id = (select id from users where email = 'viewer@demo.test')`;
  await page.goto('/queue');
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get('/api/app/accounts')).status()).toBe(401);
});
