import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// Per-network text, posting slots and drafts, as a social manager and an admin use them. Assertions are on the
// page and on the database: the product's rows and the sandbox platform's own records (sandbox.posts).

const CRON = { authorization: 'Bearer e2e-cron-secret-0123456789' };

/** Live copies of exactly this text on the sandbox, per platform. */
async function copiesOf(text: string) {
  const rows = await e2eSql()<{ platform: string; n: number }[]>`
    select a.platform, count(*)::int as n from sandbox.posts p join sandbox.accounts a on a.id = p.account_id
    where p.text = ${text} and p.deleted_at is null group by a.platform`;
  return Object.fromEntries(rows.map((r) => [r.platform, r.n]));
}

async function deliveriesOf(marker: string) {
  return e2eSql()<{ status: string; handle: string }[]>`
    select d.status, a.handle from deliveries d join posts p on p.id = d.post_id
    join social_accounts a on a.id = d.account_id where p.text like ${`%${marker}%`} order by a.handle`;
}

/** A demo-workspace account for one test (no network behind it: its queued posts stay in the future). */
async function seedAccount(label: string) {
  const tag = randomUUID().slice(0, 8);
  const handle = `@${label}_${tag}`;
  await e2eSql()`
    insert into social_accounts (workspace_id, provider, sandbox, handle, display_name, platform_user_id, base_url,
      credentials_encrypted, token_last4)
    values ((select id from workspaces where slug = 'demo'), 'mastodon', false, ${handle}, ${`Queue ${tag}`},
      ${tag}, 'https://queue.example.test', 'v1.x.x.x', 'abcd')`;
  return handle;
}

/**
 * The local `YYYY-MM-DDTHH:mm` of the current minute in the page's own zone (what datetime-local takes), or of
 * the next one late in a minute: a time more than a minute past is refused as "in the past".
 */
const soonInPage = (page: Page) =>
  page.evaluate(() => {
    const d = new Date();
    if (d.getSeconds() > 40) d.setMinutes(d.getMinutes() + 1);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  });

test('per-account variants: each account gets its own text, once, and never the other', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  const marker = randomUUID().slice(0, 8);
  // 320 characters: too long for X, fine for Mastodon.
  const long = `Long version ${marker} ${'for the fediverse '.repeat(17)}`.trim();
  const short = `Short for X ${marker} https://example.com/a/rather/long/link/that/counts/as/twenty-three`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByRole('checkbox', { name: /Demo on Mastodon/ }).check();
  await page.getByLabel('Text').fill(long);

  const xTab = page.getByRole('tab', { name: /@demo_support/ });
  await expect(xTab).toContainText(/\d+\/280/);
  await xTab.click();
  await expect(page.getByRole('figure', { name: /Preview on X/ })).toContainText('over the limit');
  await page.getByRole('button', { name: 'Write a different text for @demo_support' }).click();
  await page.getByLabel('Own text for @demo_support (X)').fill(short);
  // The link counts 23 on X, whatever its length: the preview shows the count X will make.
  const counted = short.length - 'https://example.com/a/rather/long/link/that/counts/as/twenty-three'.length + 23;
  const preview = page.getByRole('figure', { name: /Preview on X/ });
  await expect(preview).toContainText(`${counted}/280 as X counts`);
  await expect(preview).toContainText('example.com/a/rather/l…');
  await expect(xTab).toContainText('own version');

  await page.getByRole('tab', { name: /@demo@sandbox\.social/ }).click();
  await expect(page.getByRole('figure', { name: /Preview on Mastodon/ })).toContainText(`${long.length}/500`);
  await page.getByRole('tab', { name: 'All', exact: true }).click();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();

  await expect
    .poll(async () => (await deliveriesOf(marker)).map((d) => d.status), { timeout: 30_000 })
    .toEqual(['sent', 'sent']);
  expect(await copiesOf(short)).toEqual({ x: 1 });
  expect(await copiesOf(long)).toEqual({ mastodon: 1 });
});

test('"Add to queue" fills the next free slots, one post per slot, for two accounts at once', async ({ page }) => {
  const [first, second] = [await seedAccount('queue_a'), await seedAccount('queue_b')];
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Open posting slots →' }).click();
  await expect(page).toHaveURL(/\/settings\/slots$/);
  for (const handle of [first, second]) {
    const section = page.getByRole('region', { name: new RegExp(`Posting slots for ${handle}`) });
    await section.getByLabel('Time zone').selectOption('Europe/Berlin');
    await section.getByLabel('Every day at').fill('09:00');
    await section.getByRole('button', { name: 'Add to every day' }).click();
    await section.getByLabel('Every day at').fill('17:30');
    await section.getByRole('button', { name: 'Add to every day' }).click();
    await section.getByRole('button', { name: 'Save slots' }).click();
    await expect(section.getByRole('status')).toContainText('Saved: 14 slots a week.');
  }
  const listed = page.getByRole('list', { name: `Next free slots of ${first}` }).locator('time');
  await expect(listed).toHaveCount(5);
  const announced = await listed.evaluateAll((times) => times.map((t) => t.getAttribute('datetime')!));

  const texts = [`Queued one ${randomUUID()}`, `Queued two ${randomUUID()}`, `Queued three ${randomUUID()}`];
  for (const text of texts) {
    await page.goto('/compose');
    await page.getByRole('checkbox', { name: new RegExp(first) }).check();
    await page.getByRole('checkbox', { name: new RegExp(second) }).check();
    await page.getByLabel('Text').fill(text);
    await page.getByRole('radio', { name: 'Add to queue' }).check();
    await page.getByRole('button', { name: 'Add to queue', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Scheduled in the next free slot' })).toBeVisible();
  }

  const rows = await e2eSql()<{ text: string; scheduled_at: Date; reserved: number }[]>`
    select p.text, p.scheduled_at,
      (select count(*)::int from slot_reservations r where r.post_id = p.id and r.slot_at = p.scheduled_at) as reserved
    from posts p where p.text = any(${texts}) order by p.scheduled_at`;
  expect(rows.map((r) => r.text)).toEqual(texts);
  expect(rows.map((r) => r.scheduled_at.toISOString())).toEqual(announced.slice(0, 3));
  expect(rows.map((r) => r.reserved)).toEqual([2, 2, 2]); // each post holds that slot on both accounts
  // Berlin wall-clock times, whatever the season.
  for (const r of rows)
    expect(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(
        r.scheduled_at,
      ),
    ).toMatch(/^(09:00|17:30)$/);
  await page.goto('/settings/slots');
  await expect(
    page
      .getByRole('list', { name: `Next free slots of ${first}` })
      .locator('time')
      .first(),
  ).toHaveAttribute('datetime', announced[3]!);
});

test('a draft never publishes, even when the publisher runs; scheduled from Drafts, it publishes once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'manager@demo.test');
  const text = `Draft ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible();

  // The publisher runs (its own timer, and a cron call on top): the draft's planned time has come, still nothing.
  expect((await request.post('/api/cron/publish', { headers: CRON })).status()).toBe(200);
  expect((await request.post('/api/cron/publish', { headers: CRON })).status()).toBe(200);
  expect(await deliveriesOf(text)).toEqual([{ status: 'draft', handle: '@demo_support' }]);
  expect(await copiesOf(text)).toEqual({});

  // On the calendar, drawn dashed.
  await page.goto('/calendar?view=week&status=draft');
  const chip = page.getByTestId('calendar-chip').filter({ hasText: text });
  await expect(chip).toHaveAttribute('data-status', 'draft');
  await expect(chip).toHaveCSS('border-top-style', 'dashed');
  await expect(chip.getByText('Draft', { exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Drafts' }).click();
  const item = page.getByTestId('draft').filter({ hasText: text });
  await expect(item).toBeVisible();
  await item.getByRole('button', { name: 'Schedule…' }).click();
  await item.getByLabel(/Date and time/).fill(await soonInPage(page));
  await item.getByRole('button', { name: 'Schedule at this time' }).dblclick();
  // Scheduled: it leaves the drafts (the page re-reads them).
  await expect(page.getByTestId('draft').filter({ hasText: text })).toHaveCount(0);
  expect((await deliveriesOf(text)).map((d) => d.status)).not.toContain('draft');

  await expect.poll(async () => (await deliveriesOf(text)).map((d) => d.status), { timeout: 90_000 }).toEqual(['sent']);
  expect((await request.post('/api/cron/publish', { headers: CRON })).status()).toBe(200);
  expect(await copiesOf(text)).toEqual({ x: 1 });
  const [attempts] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from attempts t join deliveries d on d.id = t.delivery_id join posts p on p.id = d.post_id
    where p.text = ${text}`;
  expect(attempts!.n).toBe(1);
});
