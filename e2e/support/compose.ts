import type { Page } from '@playwright/test';

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Composes a post now to one account, then opens its page (its delivery timelines). With `inReplyTo`, the
 * composer's reply kind answering that post (its platform id or link).
 */
export async function postNowAndOpen(
  page: Page,
  handle: string,
  text: string,
  options: { inReplyTo?: string } = {},
): Promise<void> {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(escapeRegExp(handle)) }).check();
  if (options.inReplyTo !== undefined) {
    await page.getByRole('radio', { name: 'Reply', exact: true }).check();
    await page.getByLabel('Replying to (post id or link)').fill(options.inReplyTo);
  }
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
}
