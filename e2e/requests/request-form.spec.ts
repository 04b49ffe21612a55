import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { randomImage } from '../support/media';

// A production server on a shared two-core machine: a sign-in, a link and several submits per test.
test.describe.configure({ timeout: 120_000 });

/** The client's requests (and the draft posts they became) under this name. */
async function requestsOf(name: string) {
  return e2eSql()<{ postId: string | null; status: string | null; text: string | null; images: number }[]>`
    select r.post_id as "postId", p.text,
      (select string_agg(distinct d.status::text, ',') from deliveries d where d.post_id = r.post_id) as status,
      (select count(*)::int from post_media pm where pm.post_id = r.post_id) as images
    from post_requests r left join posts p on p.id = r.post_id where r.requester_name = ${name}`;
}

async function createRequestLink(page: Page, label: string): Promise<string> {
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Request link' });
  await section.getByLabel('Link name').fill(label);
  await section.getByRole('button', { name: 'Create request link' }).click();
  const field = section.getByLabel('Request link', { exact: true });
  await expect(field).toHaveValue(/\/request\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  return field.inputValue();
}

test('a request submitted twice (double click, then reload and resubmit) creates one draft', async ({
  browser,
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  const label = `Client ${randomUUID().slice(0, 8)}`;
  const url = await createRequestLink(page, label);

  const client = await browser.newContext();
  expect(await client.cookies()).toEqual([]); // no session of any kind
  const form = await client.newPage();
  await form.goto(url);
  await expect(form).toHaveURL(url); // not sent to sign in
  await expect(form.getByRole('heading', { name: 'Request a post' })).toBeVisible();
  const name = `Carla ${randomUUID().slice(0, 8)}`;
  const text = `Our spring sale starts Monday ${randomUUID()}`;
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Post text').fill(text);
  const image = await randomImage();
  await form
    .getByLabel('Add images')
    .setInputFiles({ name: 'sale.jpg', mimeType: image.mimeType, buffer: image.buffer });
  await form.getByLabel(/Alt text for image 1/).fill(image.altText);
  await form.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(form.getByRole('list', { name: 'Images of this post' }).getByText('Image 1 uploaded')).toBeVisible();
  await form.getByLabel('Note for the team (optional)').fill('Please use our logo colours.');

  await form.getByRole('button', { name: 'Send request' }).dblclick();
  await expect(form.getByRole('heading', { name: 'Request received' })).toBeVisible();
  let rows = await requestsOf(name);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ text, status: 'draft', images: 1 });

  // A reload keeps the draft and its key: sending it again is recognised, and still one draft.
  await form.reload();
  await expect(form.getByLabel('Post text')).toHaveValue(text);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('heading', { name: 'Already received' })).toBeVisible();
  rows = await requestsOf(name);
  expect(rows).toHaveLength(1);
  const [{ n }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  expect(n).toBe(1);

  // The team finds it in Drafts with the client's name, and on the post page with the note.
  await page.goto('/drafts');
  const draft = page.getByTestId('draft').filter({ hasText: text });
  await expect(draft).toHaveCount(1);
  await expect(draft).toContainText(`Requested by ${name}`);
  await draft.getByRole('link', { name: text }).click();
  await expect(page).toHaveURL(`/posts/${rows[0]!.postId}`);
  const request = page.getByRole('region', { name: 'Client request' });
  await expect(request).toContainText(`Requested by ${name}`);
  await expect(request).toContainText('Please use our logo colours.');

  // Revoked, the link answers with a clear page at once.
  await page.goto('/settings');
  await page.getByRole('button', { name: `Revoke ${label}` }).click();
  await expect(page.getByRole('button', { name: `Revoke ${label}` })).toHaveCount(0);
  await form.reload();
  await expect(form.getByRole('heading', { name: 'Link revoked' })).toBeVisible();
  await client.close();
});

test('a lost response, a retry, then back and resubmit: still one draft, and "Already received"', async ({
  browser,
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  const url = await createRequestLink(page, `Client ${randomUUID().slice(0, 8)}`);
  const client = await browser.newContext();
  const form = await client.newPage();
  await form.goto(url);
  const name = `Dana ${randomUUID().slice(0, 8)}`;
  const text = `Opening hours change ${randomUUID()}`;
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Post text').fill(text);
  // The submit reaches the server and succeeds there; only the response never arrives.
  await form.route(
    '**/request/**',
    async (route) => {
      if (route.request().method() === 'POST' && route.request().headers()['next-action']) {
        await route.fetch();
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    },
    { times: 1 },
  );
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'did not get an answer' })).toBeVisible();
  expect(await requestsOf(name)).toHaveLength(1);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('heading', { name: 'Already received' })).toBeVisible();

  // Away and back with the browser's Back button: the form comes back with its key, and sending it is a replay.
  await form.goto(`/request/${randomUUID()}.${'x'.repeat(43)}`);
  await form.goBack();
  await expect(form.getByLabel('Post text')).toHaveValue(text);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('heading', { name: 'Already received' })).toBeVisible();
  expect(await requestsOf(name)).toHaveLength(1);
  const [{ n }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  expect(n).toBe(1);

  // A new request is a new key, and a second draft.
  await form.getByRole('button', { name: 'Send another request' }).click();
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Post text').fill(`${text} (second)`);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByRole('heading', { name: 'Request received' })).toBeVisible();
  expect(await requestsOf(name)).toHaveLength(2);
  await client.close();
});

test('an unknown request link is a 404 page', async ({ page }) => {
  const response = await page.goto(`/request/${randomUUID()}.${'x'.repeat(43)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible();
});
