import { expect, type Page } from '@playwright/test';

/**
 * Starts a sign-in connect to the sandbox from /accounts as the signed-in admin and answers the sandbox's
 * consent page (as a new sandbox user). Leaves the browser back on /accounts, where the outcome is shown.
 */
export async function connectThroughSandboxOAuth(
  page: Page,
  network: { label: string; path: string },
  decision: 'Authorize Semel' | 'Deny',
): Promise<void> {
  await page.goto('/accounts');
  await page
    .getByRole('region', { name: `Connect with ${network.label}` })
    .getByRole('link', { name: `Connect with ${network.label} (sandbox)` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/api/sandbox/${network.path}/oauth/authorize\\?`));
  const authorize = new URL(page.url());
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toMatch(new RegExp(`/api/oauth/${network.path}/callback$`));
  await expect(page.getByRole('heading', { name: /Authorize Semel/ })).toBeVisible();
  await page.getByRole('radio', { name: 'A new sandbox user' }).check();
  await page.getByRole('button', { name: decision }).click();
  await expect(page).toHaveURL(/\/accounts\?oauth=/);
}
