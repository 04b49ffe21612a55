import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

async function demoWorkspaceName(): Promise<string> {
  const [row] = await e2eSql()<{ name: string }[]>`select name from workspaces where slug = 'demo'`;
  return row!.name;
}

test('a viewer cannot open the admin-only Review page', async ({ page }) => {
  await signIn(page, 'viewer@demo.test');
  await page.goto('/review');
  await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByText('Nothing needs review')).toHaveCount(0);
});

test('a viewer cannot rename the workspace: the form is disabled and the server refuses a forced submit', async ({
  page,
}) => {
  await signIn(page, 'viewer@demo.test');
  await page.goto('/settings');
  const general = page.getByRole('region', { name: 'General' });
  const name = general.getByLabel('Workspace name');
  const save = general.getByRole('button', { name: 'Save', exact: true });
  await expect(name).toBeDisabled();
  await expect(save).toBeDisabled();
  await expect(general.getByText('Only admins can rename the workspace.')).toBeVisible();

  // Bypass the UI (as a crafted request would): a disabled button is not a permission check.
  await general
    .locator('[disabled]')
    .evaluateAll((elements) => elements.forEach((el) => el.removeAttribute('disabled')));
  await expect(name).toBeEnabled();
  await name.fill('Taken Over by a Viewer');
  await save.click();

  await expect(general.getByRole('status')).toContainText('You do not have permission');
  expect(await demoWorkspaceName()).toBe('Demo Agency');
});

test('an admin renames the workspace (and renames it back)', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  const general = page.getByRole('region', { name: 'General' });
  const name = general.getByLabel('Workspace name');
  const save = general.getByRole('button', { name: 'Save', exact: true });
  try {
    await name.fill('Demo Agency Renamed');
    await save.click();
    await expect(general.getByRole('status')).toHaveText('Workspace renamed.');
    await expect(page.getByRole('banner')).toContainText('Demo Agency Renamed');
    expect(await demoWorkspaceName()).toBe('Demo Agency Renamed');

    await name.fill('Demo Agency');
    await save.click();
    await expect(page.getByRole('banner')).toContainText('Demo Agency');
    await expect(page.getByRole('banner')).not.toContainText('Renamed');
    expect(await demoWorkspaceName()).toBe('Demo Agency');
  } finally {
    // Other tests expect the seeded name, even if an assertion above failed.
    await e2eSql()`update workspaces set name = 'Demo Agency' where slug = 'demo'`;
  }
});

test('an admin gets a field error for a too-short name, and nothing is saved', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  const general = page.getByRole('region', { name: 'General' });
  await general.getByLabel('Workspace name').fill('X');
  await general.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(general.getByLabel('Workspace name')).toHaveAccessibleDescription('At least 2 characters');
  expect(await demoWorkspaceName()).toBe('Demo Agency');
});

test('an admin sets the lateness limit; an invalid value is a field error and changes nothing', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  const limit = page.getByLabel('Lateness limit (minutes)');
  await limit.fill('0');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.locator('#lateness-error')).toHaveText('At least 1 minute');
  await limit.fill('90');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.getByText('Posts may now go out up to 90 minutes late.')).toBeVisible();
  const [row] = await e2eSql()<{ s: number }[]>`select lateness_limit_seconds as s from workspaces where slug = 'demo'`;
  expect(row!.s).toBe(5400);
  await limit.fill('60');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.getByText('Posts may now go out up to 60 minutes late.')).toBeVisible();
});
