import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('a scheduled post is edited from the queue (text and accounts), then canceled from the queue', async ({
  page,
}) => {
  await signIn(page, 'manager@demo.test');
  const text = `Later ${randomUUID()}`;
  const later = new Date(Date.now() + 2 * 86_400_000);
  const local = `${later.getFullYear()}-${String(later.getMonth() + 1).padStart(2, '0')}-${String(later.getDate()).padStart(2, '0')}T10:30`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByLabel('Schedule').check();
  await page.getByLabel(/Date and time/).fill(local);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();

  await page.goto('/queue');
  const row = page.getByTestId('queue-row').filter({ hasText: text });
  await row.getByRole('link', { name: 'Edit post' }).click();
  await expect(page).toHaveURL(/\/posts\/.+#edit$/);
  const edited = `${text} (edited)`;
  await page.getByLabel('Text', { exact: true }).fill(edited);
  await page.getByRole('checkbox', { name: '@demo_support' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved. The new version is what will be published.')).toBeVisible();
  const deliveries = await e2eSql()<{ handle: string; status: string }[]>`
    select a.handle, d.status from deliveries d join posts p on p.id = d.post_id join social_accounts a on a.id = d.account_id
    where p.text = ${edited} order by a.handle`;
  expect(deliveries).toEqual([
    { handle: '@demo_brand', status: 'scheduled' },
    { handle: '@demo_support', status: 'scheduled' },
  ]);

  await page.goto('/queue');
  const editedRow = page.getByTestId('queue-row').filter({ hasText: edited });
  page.once('dialog', (d) => void d.accept());
  await editedRow.getByRole('button', { name: 'Cancel post' }).click();
  // The row refreshes: both deliveries show Canceled and the actions are gone.
  await expect(editedRow.getByRole('list', { name: 'Deliveries' }).getByText('Canceled', { exact: true })).toHaveCount(
    2,
  );
  await expect(editedRow.getByRole('button', { name: 'Cancel post' })).toHaveCount(0);
  const after = await e2eSql()<
    { status: string }[]
  >`select d.status from deliveries d join posts p on p.id = d.post_id where p.text = ${edited}`;
  expect(after.map((d) => d.status)).toEqual(['canceled', 'canceled']);
});
