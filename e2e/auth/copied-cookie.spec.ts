import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('a copied session cookie gets 401 right after sign-out, and its pages redirect to sign-in', async ({
  browser,
}) => {
  const [owner, thief] = [await browser.newContext(), await browser.newContext()];
  try {
    const page = await owner.newPage();
    await signIn(page, 'manager@demo.test');
    // The cookie is copied, as a stolen one would be, into a browser that never signed in.
    await thief.addCookies(await owner.cookies());
    expect((await thief.request.get('/api/app/accounts')).status()).toBe(200);
    const sessions = e2eSql();
    const [{ n: before }] = await sessions<{ n: number }[]>`
      select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = 'manager@demo.test'`;

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin\?signedOut=1$/);

    const refused = await thief.request.get('/api/app/accounts');
    expect(refused.status()).toBe(401);
    expect(refused.headers()['content-type']).toContain('application/problem+json');
    const stolen = await thief.newPage();
    await stolen.goto('/queue');
    await expect(stolen).toHaveURL(/\/signin/);
    await expect(stolen.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    // Sign-out deleted exactly this session's row.
    const [{ n: after }] = await sessions<{ n: number }[]>`
      select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = 'manager@demo.test'`;
    expect(after).toBe(before - 1);
  } finally {
    await owner.close();
    await thief.close();
  }
});
