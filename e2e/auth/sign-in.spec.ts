import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

async function failedSignIns(email: string): Promise<number> {
  const [row] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from login_attempts where email = ${email} and succeeded = false`;
  return row!.n;
}

test('a manager signs in and sees the dashboard', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText('manager@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' })).toBeVisible();
});

test('a wrong password shows one generic error and stays on the sign-in page', async ({ page }) => {
  const viewerFailures = await failedSignIns('viewer@demo.test');
  await page.goto('/signin');
  await page.getByLabel('Email').fill('viewer@demo.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password.');
  await expect(page).toHaveURL(/\/signin$/);
  // The failure is recorded, so repeated guessing gets throttled.
  expect(await failedSignIns('viewer@demo.test')).toBe(viewerFailures + 1);

  // An unknown email gets exactly the same message (no user enumeration).
  const before = await failedSignIns('nobody@demo.test');
  await page.getByLabel('Email').fill('nobody@demo.test');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The alert already shows the first message: wait for the server to see the second try.
  await expect.poll(() => failedSignIns('nobody@demo.test')).toBe(before + 1);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password.');
  await expect(page).toHaveURL(/\/signin$/);
});

test('a signed-out visitor is sent to sign-in, then back to the page they asked for', async ({ page }) => {
  await page.goto('/accounts');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccounts$/);
  await page.getByLabel('Email').fill('manager@demo.test');
  await page.getByLabel('Password').fill('semel-demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
});
