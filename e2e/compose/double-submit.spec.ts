import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

async function countPosts(text: string): Promise<number> {
  const [row] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  return row!.n;
}

async function fillPost(page: Page, text: string) {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByLabel('Text').fill(text);
}

const scheduled = (page: Page) => page.getByRole('status').filter({ hasText: /Scheduled|Already scheduled/ });

test.beforeEach(async ({ page }) => {
  await signIn(page, 'manager@demo.test');
});

test('double-clicking Schedule creates one post', async ({ page }) => {
  const text = `Double click ${randomUUID()}`;
  await fillPost(page, text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).dblclick();
  await expect(scheduled(page)).toBeVisible();
  expect(await countPosts(text)).toBe(1);
});

test('Enter then click creates one post', async ({ page }) => {
  const text = `Enter and click ${randomUUID()}`;
  await fillPost(page, text);
  const button = page.getByRole('button', { name: 'Schedule', exact: true });
  await button.press('Enter');
  await page.getByRole('button', { name: /Schedul/ }).click({ force: true });
  await expect.poll(() => countPosts(text)).toBe(1);
  // Once the form is idle again, still one post: the click either hit the disabled button or resubmitted the same key.
  await expect(page.getByRole('button', { name: 'Schedule', exact: true })).toBeEnabled();
  expect(await countPosts(text)).toBe(1);
});

test('submitting offline, going online and retrying creates one post', async ({ page, context }) => {
  const text = `Offline retry ${randomUUID()}`;
  await fillPost(page, text);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: "Couldn't reach the server" })).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Scheduled');
  expect(await countPosts(text)).toBe(1);
});

test('a lost response, a reload and a second submit create one post (same key from the saved draft)', async ({ page }) => {
  const text = `Lost response ${randomUUID()}`;
  await fillPost(page, text);
  // The request reaches the server and succeeds there; only the response never arrives.
  await page.route('**/compose', async (route) => {
    if (route.request().method() === 'POST' && route.request().headers()['next-action']) {
      await route.fetch();
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  }, { times: 1 });
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: "Couldn't reach the server" })).toBeVisible();
  expect(await countPosts(text)).toBe(1);
  await page.reload();
  await expect(page.getByLabel('Text')).toHaveValue(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Already scheduled — nothing was duplicated');
  expect(await countPosts(text)).toBe(1);
});

test('two separate intents create two posts', async ({ page }) => {
  const first = `First intent ${randomUUID()}`;
  const second = `Second intent ${randomUUID()}`;
  await fillPost(page, first);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Scheduled');
  await expect(page.getByLabel('Text')).toHaveValue('');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByLabel('Text').fill(second);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  // The form resets only once the second success is on screen.
  await expect(page.getByLabel('Text')).toHaveValue('');
  await expect(page.getByRole('status')).toContainText('Scheduled');
  await expect(page.getByRole('status')).not.toContainText('Already');
  expect(await countPosts(first)).toBe(1);
  expect(await countPosts(second)).toBe(1);
  const [keys] = await e2eSql()<{ n: number }[]>`select count(distinct idempotency_key)::int as n from posts where text in (${first}, ${second})`;
  expect(keys!.n).toBe(2);
});

test('20 parallel invocations of the server action with one key create one post', async ({ page }) => {
  const text = `Parallel action ${randomUUID()}`;
  await fillPost(page, text);
  const captured = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const request = await captured;
  await expect(page.getByRole('status')).toContainText('Scheduled');
  // Replays of the exact same server-action request, all in flight at once — the button is bypassed.
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => page.request.fetch(request.url(), { method: 'POST', headers: request.headers(), data: request.postDataBuffer()! })),
  );
  expect(responses.every((r) => r.status() === 200)).toBe(true);
  for (const r of responses) expect(await r.text()).toContain('Already scheduled');
  expect(await countPosts(text)).toBe(1);
});

test('the composer shows field errors and writes nothing for invalid input', async ({ page }) => {
  await page.goto('/compose');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please fix the highlighted fields' })).toBeVisible();
  await expect(page.getByLabel('Text')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#accountIds-error')).toContainText('Choose at least one account');
});
