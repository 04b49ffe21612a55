import type { Page } from '@playwright/test';

/** Composes a post now to one account, then opens its page (its delivery timelines). */
export async function postNowAndOpen(page: Page, handle: string, text: string): Promise<void> {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
}
