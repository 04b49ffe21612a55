import { expect, type Page } from '@playwright/test';

/**
 * Through the test issuer's own pages (e2e/support/oidc-provider.mjs), once a button sent the browser there: its
 * login form (any password; the login names one of its accounts), then its consent.
 */
export async function throughTestIssuer(page: Page, login: string) {
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}
