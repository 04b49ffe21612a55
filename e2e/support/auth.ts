import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'semel-demo';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/queue$/);
}
