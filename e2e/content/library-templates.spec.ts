import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { randomImage } from '../support/media';

// Library → Templates (docs/content.md#snippets-and-templates): a template with an image attached as the composer
// attaches one (alt text, upload), then edited in place — its text, accounts and images replaced, a blank first
// comment removed — and what the database holds after each.

const templateRow = async (name: string) =>
  (
    await e2eSql()<{ id: string; text: string; first_comment: string | null; media_ids: string[]; n: number }[]>`
      select t.id, t.text, t.first_comment, t.media_ids, cardinality(t.account_ids) as n
      from post_templates t join workspaces w on w.id = t.workspace_id
      where w.slug = 'demo' and t.name = ${name}`
  )[0];

test('a template gets an image in the Library form, then is edited there: text, accounts, images and comment replaced', async ({
  page,
}) => {
  const name = `Launch ${randomUUID().slice(0, 8)}`;
  await signIn(page, 'manager@demo.test');
  await page.goto('/library');
  const templates = page.getByRole('region', { name: 'Templates' });
  await templates.getByLabel('Name', { exact: true }).fill(name);
  await templates.getByLabel('Text, with {{variables}}').fill('New in store: {{product}}');
  await templates.getByLabel('First comment (optional)').fill('Shop {{product}}');
  await templates.getByRole('checkbox', { name: '@demo_support', exact: true }).check();
  const image = await randomImage();
  await templates
    .getByLabel('Add images')
    .setInputFiles({ name: 'image.jpeg', mimeType: image.mimeType, buffer: image.buffer });
  await templates.getByLabel(/Alt text for image 1/).fill(image.altText);
  await templates.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(templates.getByText('Image 1 uploaded')).toBeVisible();
  await templates.getByRole('button', { name: 'Add template' }).click();
  await expect(templates.getByRole('status').filter({ hasText: `Template “${name}” added` })).toBeVisible();
  const item = templates.getByRole('list', { name: 'Templates' }).getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText('1 image');
  const added = await templateRow(name);
  expect(added).toMatchObject({ text: 'New in store: {{product}}', first_comment: 'Shop {{product}}', n: 1 });
  expect(added!.media_ids).toHaveLength(1);
  const [stored] = await e2eSql()<
    { alt_text: string }[]
  >`select alt_text from media where id = ${added!.media_ids[0]!}`;
  expect(stored!.alt_text).toBe(image.altText);

  // Edit: the form opens with the template as it is; Save replaces its fields.
  await item.getByRole('link', { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/library\\?edit=${added!.id}`));
  const form = templates.locator('#edit-template');
  await expect(form.getByRole('heading', { name: `Edit “${name}”` })).toBeVisible();
  await expect(form.getByLabel('Text, with {{variables}}')).toHaveValue('New in store: {{product}}');
  await expect(form.getByRole('checkbox', { name: '@demo_support', exact: true })).toBeChecked();
  await expect(form.getByText('Image 1 uploaded')).toBeVisible();
  await form.getByLabel('Text, with {{variables}}').fill('Back in store: {{product}} at {{price}}');
  await form.getByLabel('First comment (optional)').fill('');
  await form.getByRole('checkbox', { name: '@demo_brand', exact: true }).check();
  await form.getByRole('button', { name: 'Remove image 1' }).click();
  const second = await randomImage();
  await form
    .getByLabel('Add images')
    .setInputFiles({ name: 'b.jpeg', mimeType: second.mimeType, buffer: second.buffer });
  await form.getByLabel(/Alt text for image 1/).fill(second.altText);
  await form.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(form.getByText('Image 1 uploaded')).toBeVisible();
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(form.getByRole('status').filter({ hasText: `Template “${name}” saved.` })).toBeVisible();
  const edited = await templateRow(name);
  expect(edited).toMatchObject({
    id: added!.id,
    text: 'Back in store: {{product}} at {{price}}',
    first_comment: null,
    n: 2,
  });
  expect(edited!.media_ids).toHaveLength(1);
  expect(edited!.media_ids[0]).not.toBe(added!.media_ids[0]);
  await form.getByRole('link', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/library$/);
  await expect(item).toContainText('Back in store: {{product}} at {{price}}');
});
