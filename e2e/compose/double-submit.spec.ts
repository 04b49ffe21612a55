import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type Request } from '@playwright/test';
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

/** The app's database pool (db/client.ts): at most this many of its requests can be inside Postgres at once. */
const APP_POOL_SIZE = 10;

async function blockedKeyWrites(): Promise<number> {
  const [row] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
    where application_name = 'semel' and wait_event_type = 'Lock' and query ilike 'insert into "idempotency_keys"%'`;
  return row!.n;
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

test('a lost response, a reload and a second submit create one post (same key from the saved draft)', async ({
  page,
}) => {
  const text = `Lost response ${randomUUID()}`;
  await fillPost(page, text);
  // The request reaches the server and succeeds there; only the response never arrives.
  await page.route(
    '**/compose',
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
  const [keys] = await e2eSql()<
    { n: number }[]
  >`select count(distinct idempotency_key)::int as n from posts where text in (${first}, ${second})`;
  expect(keys!.n).toBe(2);
});

test('20 server-action submits with one key, all in flight at the same time, create one post', async ({ page }) => {
  const text = `Parallel action ${randomUUID()}`;
  await fillPost(page, text);
  // The real server-action request the button sends (headers, multipart body with the draft's key), kept from the server.
  let original!: Request;
  await page.route('**/compose', async (route) => {
    if (route.request().method() !== 'POST' || !route.request().headers()['next-action']) return route.fallback();
    original = route.request();
    await route.abort('connectionreset');
  });
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: "Couldn't reach the server" })).toBeVisible();
  await page.unrouteAll();
  expect(await countPosts(text)).toBe(0);

  // Every copy stops at its first write (the key row) until all the app's connections hold one: none can finish early.
  const gate = await e2eSql().reserve();
  let copies: Promise<{ startedAt: number; finishedAt: number; status: number; body: string }>[] = [];
  try {
    await gate`begin`;
    await gate`lock table idempotency_keys in share mode`;
    const finished = { count: 0 };
    copies = Array.from({ length: 20 }, async () => {
      const startedAt = performance.now();
      const response = await page.request.fetch(original.url(), {
        method: 'POST',
        headers: original.headers(),
        data: original.postDataBuffer()!,
        timeout: 30_000,
      });
      const body = await response.text();
      finished.count++;
      return { startedAt, finishedAt: performance.now(), status: response.status(), body };
    });
    await expect
      .poll(blockedKeyWrites, { message: 'copies blocked at the key write, one per app connection' })
      .toBe(APP_POOL_SIZE);
    expect(finished.count).toBe(0);
  } finally {
    await gate`commit`;
    gate.release();
  }
  const results = await Promise.all(copies);
  expect(Math.max(...results.map((r) => r.startedAt))).toBeLessThan(Math.min(...results.map((r) => r.finishedAt)));
  expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
  // One copy created the post; the other 19 waited for it and replayed its answer.
  expect(results.filter((r) => r.body.includes('Already scheduled')).length).toBe(19);
  expect(results.filter((r) => !r.body.includes('Already scheduled') && r.body.includes('"Scheduled"')).length).toBe(1);
  expect(await countPosts(text)).toBe(1);

  // What the user sees: resubmitting the saved draft says it is already scheduled, and the queue lists it once.
  await page.reload();
  await expect(page.getByLabel('Text')).toHaveValue(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Already scheduled — nothing was duplicated');
  await page.goto('/queue');
  await expect(page.getByText(text)).toHaveCount(1);
  expect(await countPosts(text)).toBe(1);
});

test('the composer shows field errors and writes nothing for invalid input', async ({ page }) => {
  await page.goto('/compose');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please fix the highlighted fields' })).toBeVisible();
  await expect(page.getByLabel('Text')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#accountIds-error')).toContainText('Choose at least one account');
});
