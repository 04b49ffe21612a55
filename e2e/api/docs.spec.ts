import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';

/** PATCH /posts/{id}'s summary in its contract (app/api/v1/posts/[id]/contract.ts). */
const EDIT_SUMMARY = 'Edit text (a thread: all its parts), time or targets while nothing is claimed (idempotent)';

test('a signed-in user opens the API reference from Settings → API, served entirely from this origin', async ({
  page,
  baseURL,
}) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${baseURL}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  await signIn(page, 'manager@demo.test');
  await page.goto('/settings/api');
  const documentLoaded = page.waitForResponse(
    (r) => r.url() === `${baseURL}/api/v1/openapi.json` && r.status() === 200,
  );
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await documentLoaded;

  // Rendered by Scalar from the generated document, including PATCH /posts/{id}, which the hand-written one lacked.
  await expect(page.getByRole('heading', { name: 'Semel API', level: 1 })).toBeVisible();
  await expect(page.getByText(`${baseURL}/api/v1`, { exact: true }).first()).toBeVisible(); // the server: this origin
  const sidebar = page.getByRole('complementary', { name: 'Sidebar for Semel API' });
  for (const [summary, method] of [
    ['Create a post (idempotent)', 'POST'],
    [EDIT_SUMMARY, 'PATCH'],
    ['Cancel the deliveries still scheduled (idempotent)', 'POST'],
  ]) {
    await expect(sidebar.getByRole('link', { name: `${summary} HTTP Method: ${method}` })).toBeVisible();
  }
  await sidebar.getByRole('link', { name: /^Edit text/ }).click();
  const edit = page.getByRole('region', { name: EDIT_SUMMARY });
  await expect(edit.getByRole('heading', { name: EDIT_SUMMARY })).toBeVisible();
  await expect(edit.getByText('Idempotency-Key', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: '← Settings · API' })).toBeVisible();
  // No CDN, fonts or telemetry: the network is closed and a CSP will allow only 'self'.
  expect(foreign).toEqual([]);
});

test('the OpenAPI document names the origin it was requested from', async ({ request, baseURL }) => {
  const doc = await (await request.get('/api/v1/openapi.json')).json();
  expect(doc.info.title).toBe('Semel API');
  expect(doc.servers).toEqual([{ url: `${baseURL}/api/v1` }]);
  expect(Object.keys(doc.paths['/posts/{id}']).sort()).toEqual(['get', 'patch']);
});

test('signed out, the reference page asks to sign in first', async ({ page }) => {
  await page.goto('/docs/api');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdocs%2Fapi$/);
});
