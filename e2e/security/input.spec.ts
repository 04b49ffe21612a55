import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('a NUL character in the compose form is a field error, and nothing is written', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  const marker = randomUUID();
  await page.getByLabel('Text').fill(`nul ${marker} \u0000 here`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText(/NUL character/)).toBeVisible();
  expect(await e2eSql()`select 1 from posts where text like ${`%${marker}%`}`).toHaveLength(0);
});
