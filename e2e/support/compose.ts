import { expect, type Page } from '@playwright/test';

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Composes a post now to one account, then opens its page (its delivery timelines). With `inReplyTo`, the
 * composer's reply kind answering that post (its platform id or link).
 */
export async function postNowAndOpen(
  page: Page,
  handle: string,
  text: string,
  options: { inReplyTo?: string; image?: ComposerImage } = {},
): Promise<void> {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(escapeRegExp(handle)) }).check();
  if (options.inReplyTo !== undefined) {
    await page.getByRole('radio', { name: 'Reply', exact: true }).check();
    await page.getByLabel('Replying to (post id or link)').fill(options.inReplyTo);
  }
  await page.getByLabel('Text').fill(text);
  if (options.image) await attachImage(page, options.image);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
}

/** An image for the composer: its bytes and the alt text the demo workspaces require. */
export type ComposerImage = { buffer: Buffer; mimeType: string; altText: string };

/** Picks the image in the composer, gives it its alt text and waits until it is uploaded. */
export async function attachImage(page: Page, image: ComposerImage): Promise<void> {
  const name = `image.${image.mimeType.split('/')[1]}`;
  await page.getByLabel('Add images').setInputFiles({ name, mimeType: image.mimeType, buffer: image.buffer });
  await page.getByLabel(/Alt text for image 1/).fill(image.altText);
  await page.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(page.getByRole('list', { name: 'Images of this post' }).getByText('Image 1 uploaded')).toBeVisible();
}

/** Composes a thread now to one account (the composer starts with two parts), then opens its page. */
export async function threadNowAndOpen(page: Page, handle: string, texts: string[]): Promise<void> {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(escapeRegExp(handle)) }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  for (const [i, text] of texts.entries()) {
    if (i >= 2) await page.getByRole('button', { name: 'Add part' }).click();
    await page.getByLabel(`Part ${i + 1}`, { exact: true }).fill(text);
  }
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
}

/** On the post page: the delivery to this account reads "Sent" (the in-process scheduler publishes at once). */
export async function expectDeliverySent(page: Page, handle: string): Promise<void> {
  await expect(
    page
      .getByRole('region', { name: `Delivery to ${handle}` })
      .locator('header')
      .getByText('Sent', { exact: true }),
  ).toBeVisible();
}
