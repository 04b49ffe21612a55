import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';

test('signing out ends the session: protected pages redirect to sign-in', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  await expect(page.getByRole('status')).toHaveText('You are signed out.');

  await page.goto('/queue');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fqueue$/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
});
