import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// A bulk reschedule of five posts in the calendar (docs/content.md#bulk-actions): select them, move them a day on —
// each the same keyed edit as one post — and the result lists each one changed; the chips move, the rows too.

const DAY_MS = 86_400_000;

test('bulk reschedule of five posts in the calendar: each moved one day, listed as changed', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  const tag = randomUUID().slice(0, 8);
  const [account] = await e2eSql()<{ id: string }[]>`
    insert into social_accounts (workspace_id, provider, sandbox, handle, display_name, platform_user_id, base_url,
      credentials_encrypted, token_last4)
    values ((select id from workspaces where slug = 'demo'), 'mastodon', false, ${`@bulk_${tag}`}, ${`Bulk ${tag}`},
      ${tag}, 'https://bulk.example.test', 'v1.x.x.x', 'abcd')
    returning id`;
  const base = new Date(Date.now() + 2 * DAY_MS);
  const day = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), 9));
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const at = new Date(day.getTime() + i * 3_600_000);
    const [post] = await e2eSql()<{ id: string }[]>`
      insert into posts (workspace_id, text, scheduled_at, source, idempotency_key)
      values ((select id from workspaces where slug = 'demo'), ${`Bulk ${tag} #${i + 1}`}, ${at}, 'api', ${randomUUID()})
      returning id`;
    await e2eSql()`
      insert into deliveries (workspace_id, post_id, account_id, due_at)
      values ((select id from workspaces where slug = 'demo'), ${post!.id}, ${account!.id}, ${at})`;
    ids.push(post!.id);
  }
  await signIn(page, 'manager@demo.test');
  const date = day.toISOString().slice(0, 10);
  await page.goto(`/calendar?view=week&date=${date}&account=${account!.id}`);
  await page.getByRole('button', { name: 'Select posts' }).click();
  for (let i = 0; i < 5; i++) await page.getByRole('checkbox', { name: `Select Bulk ${tag} #${i + 1}` }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar.getByText('5 selected')).toBeVisible();
  await bar.getByLabel('Action').selectOption('reschedule');
  await bar.getByLabel('Move by (negative: earlier)').fill('1');
  await bar.getByLabel('Unit').selectOption('days');
  await bar.getByRole('button', { name: 'Apply to 5' }).click();
  await expect(bar.getByRole('status')).toContainText('5 changed.');
  await expect(bar.getByRole('list', { name: 'Bulk results' }).locator('[data-outcome="changed"]')).toHaveCount(5);

  const rows = await e2eSql()<{ id: string; scheduled_at: Date; due_at: Date }[]>`
    select p.id, p.scheduled_at, d.due_at from posts p join deliveries d on d.post_id = p.id
    where p.id = any(${ids}::uuid[])`;
  for (const [i, id] of ids.entries()) {
    const row = rows.find((r) => r.id === id)!;
    const expected = day.getTime() + i * 3_600_000 + DAY_MS;
    expect([row.scheduled_at.getTime(), row.due_at.getTime()]).toEqual([expected, expected]);
  }
  // On the calendar (refetched after the action), each chip shows its new time.
  await page.getByRole('button', { name: 'Done selecting' }).click();
  await page.goto(
    `/calendar?view=week&date=${new Date(day.getTime() + DAY_MS).toISOString().slice(0, 10)}&account=${account!.id}`,
  );
  for (let i = 0; i < 5; i++)
    await expect(
      page
        .getByTestId('calendar-chip')
        .filter({ hasText: `Bulk ${tag} #${i + 1}` })
        .locator('time'),
    ).toHaveAttribute('datetime', new Date(day.getTime() + i * 3_600_000 + DAY_MS).toISOString());
  await context.close();
});
