import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('an image with alt text from the composer goes out once to an X and a Bluesky sandbox account, each copy showing it', async ({
  page,
}) => {
  await signIn(page, 'manager@demo.test');
  const text = `With a picture ${randomUUID()}`;
  const altText = `A teal square ${randomUUID().slice(0, 6)}`;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 128, b: 128 } } })
    .jpeg()
    .toBuffer();

  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByRole('checkbox', { name: /Demo on Bluesky/ }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByLabel('Add images').setInputFiles({ name: 'teal.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  // Alt text is required in the demo workspace: the upload waits for it.
  await page.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'alt text is required' })).toBeVisible();
  await page.getByLabel(/Alt text for image 1/).fill(altText);
  await page.getByRole('button', { name: 'Upload image 1' }).click();
  const images = page.getByRole('list', { name: 'Images of this post' });
  await expect(images.getByText('Image 1 uploaded')).toBeVisible();
  await expect(images.getByRole('img', { name: altText })).toBeVisible();

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();

  // Both deliveries are published (the in-process scheduler picks them up at once).
  const statuses = async () =>
    (
      await e2eSql()<{ provider: string; status: string; reason: string | null }[]>`
        select a.provider, d.status, (select e.reason from delivery_events e where e.delivery_id = d.id order by e.id desc limit 1) as reason
        from deliveries d join posts p on p.id = d.post_id join social_accounts a on a.id = d.account_id
        where p.text = ${text}`
    )
      .map((r) => `${r.provider}: ${r.status}${r.status === 'sent' ? '' : ` (${r.reason})`}`)
      .sort();
  await expect.poll(statuses, { timeout: 20_000 }).toEqual(['bluesky: sent', 'x: sent']);

  // The sandbox's timeline: one copy per account, each with the image and its alt text.
  await page.goto('/sandbox');
  for (const handle of ['@demo_support', '@demo-brand.bsky.sandbox']) {
    const copies = page
      .getByRole('region', { name: `Timeline of ${handle}` })
      .getByRole('list', { name: `Posts of ${handle}` })
      .getByRole('listitem')
      .filter({ hasText: text });
    await expect(copies).toHaveCount(1);
    await expect(copies.getByRole('list', { name: 'Images' }).getByRole('listitem')).toHaveText([
      new RegExp(`JPEG · [0-9a-f]{8} · alt “${altText}”`),
    ]);
  }

  const rows = await e2eSql()<{ media: { type: string; altText: string; sha256: string }[] }[]>`
    select media from sandbox.posts where text = ${text}`;
  expect(rows).toHaveLength(2);
  const [stored] = await e2eSql()<{ sha256: string }[]>`
    select m.sha256 from media m join post_media pm on pm.media_id = m.id join posts p on p.id = pm.post_id
    where p.text = ${text}`;
  for (const row of rows) expect(row.media).toEqual([{ type: 'image/jpeg', altText, sha256: stored!.sha256 }]);
});
