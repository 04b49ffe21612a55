import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';

test('"Sign out everywhere" ends the sessions in every other browser at their next request', async ({ browser }) => {
  const [laptop, phone] = [await browser.newContext(), await browser.newContext()];
  const [onLaptop, onPhone] = [await laptop.newPage(), await phone.newPage()];
  try {
    await signIn(onLaptop, 'viewer@demo.test');
    await signIn(onPhone, 'viewer@demo.test');

    await onLaptop.goto('/settings/security');
    await onLaptop.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
    await expect(onLaptop).toHaveURL(/\/signin\?signedOut=1$/);

    // The phone still holds its (unexpired) cookie, but the server refuses it.
    await onPhone.goto('/queue');
    await expect(onPhone).toHaveURL(/\/signin/);
    await expect(onPhone.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    // Signing in again works, on both.
    await signIn(onPhone, 'viewer@demo.test');
    await signIn(onLaptop, 'viewer@demo.test');
  } finally {
    await laptop.close();
    await phone.close();
  }
});
