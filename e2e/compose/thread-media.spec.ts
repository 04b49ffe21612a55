import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { expectThreadChain } from '../support/thread';

// Images on thread parts (docs/publishing.md#scheduling), in the real composer: each part has its own image picker, and
// switching a post with images to a thread moves them to part 1 (and back), never dropping them.

const jpeg = (r: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 96, b: 160 } } })
    .jpeg()
    .toBuffer();

test.beforeEach(async ({ page }) => {
  await signIn(page, 'manager@demo.test');
});

/** Adds one image with alt text through a picker (alt text is required in the demo workspace). */
async function addImage(picker: Locator, buffer: Buffer, altText: string) {
  await picker.getByLabel('Add images').setInputFiles({ name: 'picture.jpg', mimeType: 'image/jpeg', buffer });
  await picker.getByLabel(/Alt text for image 1/).fill(altText);
  await picker.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(picker.getByText('Image 1 uploaded')).toBeVisible();
  await expect(picker.getByRole('img', { name: altText })).toBeVisible();
}

const partImages = (page: Page, n: number) => page.getByRole('group', { name: `Images of part ${n}` });

test('a thread of 3 with an image in part 2 goes out as a chained thread with one copy per part', async ({ page }) => {
  const tag = randomUUID().slice(0, 8);
  const texts = [`Pictured thread ${tag}: one`, `Pictured thread ${tag}: two`, `Pictured thread ${tag}: three`];
  const altText = `A blue card for part two ${tag}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  await page.getByLabel('Part 1', { exact: true }).fill(texts[0]!);
  await page.getByLabel('Part 2', { exact: true }).fill(texts[1]!);
  await page.getByRole('button', { name: 'Add part' }).click();
  await page.getByLabel('Part 3', { exact: true }).fill(texts[2]!);
  await addImage(partImages(page, 2), await jpeg(40), altText);
  await expect(partImages(page, 1).getByRole('listitem')).toHaveCount(0);
  await expect(partImages(page, 3).getByRole('listitem')).toHaveCount(0);

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expect(page.getByRole('heading', { name: 'Thread', exact: true })).toBeVisible();
  // The post page shows part 2's image with it, and no image on the other parts.
  await expect(page.getByRole('list', { name: 'Images of part 2' }).getByRole('img', { name: altText })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Images of part 1' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Images of part 3' })).toHaveCount(0);

  // Each part exists once on the sandbox, chained, each delivery sent after one attempt.
  await expectThreadChain(page, '@demo_brand', 'X', texts);
  // The sandbox's own records: part 2's copy carries the image (its stored bytes' hash and alt text), 1 and 3 none.
  const [stored] = await e2eSql()<{ sha256: string }[]>`
    select m.sha256 from media m join post_media pm on pm.media_id = m.id join posts p on p.id = pm.post_id
    where p.text = ${texts[0]!} and pm.part = 1`;
  const copies = await e2eSql()<{ text: string; media: { type: string; altText: string; sha256: string }[] }[]>`
    select text, media from sandbox.posts where text = any(${texts})`;
  const mediaOf = (text: string) => copies.filter((c) => c.text === text).map((c) => c.media);
  expect(mediaOf(texts[0]!)).toEqual([[]]);
  expect(mediaOf(texts[1]!)).toEqual([[{ type: 'image/jpeg', altText, sha256: stored!.sha256 }]]);
  expect(mediaOf(texts[2]!)).toEqual([[]]);
});

test('switching a post with an image to a thread moves the image to part 1, and back again', async ({ page }) => {
  const tag = randomUUID().slice(0, 8);
  const altText = `Kept across kinds ${tag}`;
  const text = `Post becoming a thread ${tag}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByLabel('Text').fill(text);
  const postImages = page.getByRole('group', { name: 'Images', exact: true });
  await addImage(postImages, await jpeg(200), altText);

  await page.getByRole('radio', { name: 'Thread' }).check();
  await expect(page.getByLabel('Part 1', { exact: true })).toHaveValue(text);
  await expect(partImages(page, 1).getByRole('img', { name: altText })).toBeVisible();
  await expect(partImages(page, 2).getByRole('listitem')).toHaveCount(0);

  await page.getByRole('radio', { name: 'Post', exact: true }).check();
  await expect(postImages.getByRole('img', { name: altText })).toBeVisible();

  // And as a thread it is scheduled with the image on part 1 (stored under part 0).
  await page.getByRole('radio', { name: 'Thread' }).check();
  await expect(partImages(page, 1).getByRole('img', { name: altText })).toBeVisible();
  await page.getByLabel('Part 2', { exact: true }).fill(`${text}, continued`);
  await page.getByLabel('Schedule').check();
  const later = new Date(Date.now() + 2 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel(/Date and time/)
    .fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T10:30`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();
  const rows = await e2eSql()<{ part: number; alt_text: string }[]>`
    select pm.part, m.alt_text from post_media pm join media m on m.id = pm.media_id join posts p on p.id = pm.post_id
    where p.text = ${text} and p.kind = 'thread'`;
  expect(rows).toEqual([{ part: 0, alt_text: altText }]);
});
