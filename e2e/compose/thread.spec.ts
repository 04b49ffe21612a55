import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const NETWORKS = [
  { account: /Demo Brand/, handle: '@demo_brand', network: 'X', platform: 'x' },
  { account: /Demo on Mastodon/, handle: '@demo@sandbox.social', network: 'Mastodon', platform: 'mastodon' },
  { account: /Demo on Bluesky/, handle: '@demo-brand.bsky.sandbox', network: 'Bluesky', platform: 'bluesky' },
  { account: /Demo on Threads/, handle: '@demo_brand_threads', network: 'Threads', platform: 'threads' },
] as const;

test.beforeEach(async ({ page }) => {
  await signIn(page, 'manager@demo.test');
});

test('a thread of 3 composed in the browser goes out as a chain, one copy per part on each network', async ({
  page,
}) => {
  const tag = randomUUID().slice(0, 8);
  const texts = [`Thread ${tag}: one`, `Thread ${tag}: two`, `Thread ${tag}: three`];
  await page.goto('/compose');
  for (const n of NETWORKS) await page.getByRole('checkbox', { name: n.account }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();

  // Written out of order, then put right with the keyboard alone.
  await page.getByLabel('Part 1', { exact: true }).fill(texts[1]!);
  await page.getByLabel('Part 2', { exact: true }).fill(texts[0]!);
  await page.getByRole('button', { name: 'Add part' }).press('Enter');
  await expect(page.getByLabel('Part 3', { exact: true })).toBeFocused();
  await page.keyboard.type(texts[2]!);
  await page.getByRole('button', { name: 'Move part 2 up' }).focus();
  await page.keyboard.press('Enter');
  // The moved part is now first (its "up" is disabled): focus went to its text.
  await expect(page.getByLabel('Part 1', { exact: true })).toBeFocused();
  for (const [i, text] of texts.entries())
    await expect(page.getByLabel(`Part ${i + 1}`, { exact: true })).toHaveValue(text);
  // Each part is counted against each chosen network's limit.
  await expect(page.locator('#part-2-count')).toContainText(`${texts[2]!.length}/280 X`);
  await expect(page.locator('#part-2-count')).toContainText(`${texts[2]!.length}/300 Bluesky`);

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expect(page.getByRole('heading', { name: 'Thread', exact: true })).toBeVisible();

  // Every part's own delivery on every network ends sent, each with its link.
  for (const [i] of texts.entries())
    for (const n of NETWORKS) {
      const delivery = page.getByRole('region', { name: `Part ${i + 1} of 3 to ${n.handle} on ${n.network}` });
      await expect(delivery.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
      await expect(delivery.getByRole('link', { name: 'View on platform' })).toBeVisible();
    }

  // On the platform's own records: one copy per part, each part a reply to the one before it.
  const copies = await e2eSql()<
    { platform: string; text: string; id: string; platform_id: string; in_reply_to_id: string | null }[]
  >`select a.platform::text, p.text, p.id::text,
      case when a.platform = 'bluesky' then 'at://' || a.platform_user_id || '/app.bsky.feed.post/' || p.record_key
        else p.id::text end as platform_id, p.in_reply_to_id
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id
    where p.text = any(${texts}) and p.deleted_at is null`;
  for (const n of NETWORKS) {
    const chain = texts.map((text) => copies.filter((c) => c.platform === n.platform && c.text === text));
    expect(
      chain.map((c) => c.length),
      n.network,
    ).toEqual([1, 1, 1]);
    expect(chain[0]![0]!.in_reply_to_id).toBeNull();
    expect(chain[1]![0]!.in_reply_to_id).toBe(chain[0]![0]!.platform_id);
    expect(chain[2]![0]!.in_reply_to_id).toBe(chain[1]![0]!.platform_id);
  }
  // And in our database: 12 deliveries, each sent once with the id of its own copy.
  const deliveries = await e2eSql()<{ part: number; status: string; attempts: number }[]>`
    select d.part, d.status, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${texts[0]!} and p.kind = 'thread'`;
  expect(deliveries).toHaveLength(12);
  expect(deliveries.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);

  // The queue shows the thread as one item, at its last part on each account.
  await page.goto('/queue');
  const row = page.getByTestId('queue-row').filter({ hasText: texts[0]! });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('thread-progress')).toHaveText(Array(4).fill('part 3 of 3'));
});

test('a thread of three to LinkedIn (a post and its first comment at most) is refused with a field error, and nothing is scheduled', async ({
  page,
}) => {
  const text = `No thread of three on LinkedIn ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Agency on LinkedIn/ }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  await expect(page.getByRole('note')).toContainText('LinkedIn takes 2 parts at most');
  await page.getByLabel('Part 1', { exact: true }).fill(text);
  await page.getByLabel('Part 2', { exact: true }).fill('second part');
  await page.getByRole('button', { name: 'Add part' }).click();
  await page.getByLabel('Part 3', { exact: true }).fill('third part');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.locator('#parts-error')).toContainText('LinkedIn takes a post and 1 comment');
  const [row] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  expect(row!.n).toBe(0);
});

test('a scheduled thread is edited on its page: parts reordered with the keyboard and one added, as a whole', async ({
  page,
}) => {
  const tag = randomUUID().slice(0, 8);
  const later = new Date(Date.now() + 2 * 86_400_000);
  const local = `${later.getFullYear()}-${String(later.getMonth() + 1).padStart(2, '0')}-${String(later.getDate()).padStart(2, '0')}T10:30`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  await page.getByLabel('Part 1', { exact: true }).fill(`Edit ${tag}: two`);
  await page.getByLabel('Part 2', { exact: true }).fill(`Edit ${tag}: one`);
  await page.getByLabel('Schedule').check();
  await page.getByLabel(/Date and time/).fill(local);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();

  const form = page.locator('#edit');
  await form.getByRole('button', { name: 'Move part 2 up' }).focus();
  await page.keyboard.press('Enter');
  await form.getByRole('button', { name: 'Add part' }).press('Enter');
  await expect(form.getByLabel('Part 3', { exact: true })).toBeFocused();
  await page.keyboard.type(`Edit ${tag}: three`);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Saved. The new version is what will be published.')).toBeVisible();

  const parts = await e2eSql()<{ text: string; deliveries: number }[]>`
    select pp.text, (select count(*)::int from deliveries d where d.post_id = pp.post_id and d.part = pp.position
      and d.status = 'scheduled') as deliveries
    from post_parts pp join posts p on p.id = pp.post_id where p.text = ${`Edit ${tag}: one`} order by pp.position`;
  expect(parts).toEqual([
    { text: `Edit ${tag}: one`, deliveries: 1 },
    { text: `Edit ${tag}: two`, deliveries: 1 },
    { text: `Edit ${tag}: three`, deliveries: 1 },
  ]);
});
