import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('an admin deletes a workspace only after typing its name; it is gone from the switcher at once', async ({
  page,
}) => {
  const slug = `doomed-${randomUUID().slice(0, 6)}`;
  await signIn(page, 'admin@demo.test');
  await page.getByRole('banner').getByRole('link', { name: 'New workspace' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Doomed Client');
  await page.getByLabel('Slug', { exact: true }).fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const switcher = page.getByRole('banner').getByRole('combobox', { name: 'Workspace' });
  await expect(switcher).toHaveValue(slug);

  const danger = page.getByRole('region', { name: 'Delete workspace' });
  await danger.getByLabel('Type Doomed Client to confirm').fill('Doomed');
  await danger.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(danger.getByLabel('Type Doomed Client to confirm')).toHaveAccessibleDescription(
    "Type the workspace's name, Doomed Client, to confirm.",
  );
  await danger.getByLabel('Type Doomed Client to confirm').fill('Doomed Client');
  await danger.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(page).toHaveURL(/\/queue$/);
  await expect(switcher.getByRole('option', { name: /Doomed Client/ })).toHaveCount(0);
  await expect(page.getByRole('banner')).toContainText('Demo Agency');
  const [row] = await e2eSql()<{ deleted: boolean }[]>`
    select deleted_at is not null as deleted from workspaces where slug = ${slug}
    union all select true where not exists (select 1 from workspaces where slug = ${slug})`;
  expect(row!.deleted).toBe(true);
});
