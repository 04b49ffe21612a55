import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';

test('a manager signs in and sees the dashboard', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText('manager@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' })).toBeVisible();
});
