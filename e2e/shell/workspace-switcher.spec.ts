import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const ADMIN = 'admin@demo.test';

// The seed gives nobody two workspaces: this test adds (and removes) a second membership itself.
test.beforeEach(async () => {
  await e2eSql()`
    insert into memberships (workspace_id, user_id, role)
    select w.id, u.id, 'manager' from workspaces w, users u where w.slug = 'other' and u.email = ${ADMIN}
    on conflict do nothing`;
});
test.afterEach(async () => {
  await e2eSql()`
    delete from memberships
    where workspace_id = (select id from workspaces where slug = 'other')
      and user_id = (select id from users where email = ${ADMIN})`;
});

test('a member of two workspaces switches between them', async ({ page }) => {
  await signIn(page, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Workspace' });
  await expect(switcher).toHaveValue('demo');
  await expect(page.getByText('Scheduled, publishing and settled posts in Demo Agency.')).toBeVisible();

  await switcher.selectOption({ label: 'Other Agency (manager)' });
  await expect(page.getByText('Scheduled, publishing and settled posts in Other Agency.')).toBeVisible();
  await expect(switcher).toHaveValue('other');
  await expect(page.getByRole('banner').getByText('manager', { exact: true })).toBeVisible();

  // The data follows the workspace: Other Agency's accounts, not Demo Agency's.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
  await expect(page).toHaveURL(/\/accounts$/); // the queue before it lists the seeded posts' handles too
  await expect(page.getByText('@other_brand', { exact: true })).toBeVisible();
  await expect(page.getByText('@demo_brand')).toHaveCount(0);

  // The role is the one in the active workspace: a manager there, so its admin pages are refused…
  await page.goto('/settings/api');
  await expect(page.getByText('Only admins can create and revoke API keys.')).toBeVisible();
  // …while Review spans the workspaces the user administers (Demo Agency), never the others.
  await page.goto('/review');
  await expect(page.getByRole('heading', { name: 'Review', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Other Agency' })).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Demo Agency (admin)' });
  await expect(page.getByRole('banner').getByText('admin', { exact: true })).toBeVisible();
});

test('a member of one workspace sees its name and no switcher', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await expect(page.getByRole('banner')).toContainText('Demo Agency');
  await expect(page.getByRole('combobox', { name: 'Workspace' })).toHaveCount(0);
});
