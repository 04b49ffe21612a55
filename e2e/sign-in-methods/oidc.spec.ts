import { expect, test, type Page } from '@playwright/test';
import { e2eSql } from '../support/db';
import { throughTestIssuer } from '../support/oidc';

async function signInWithSso(page: Page, login: string) {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in with Test SSO' }).click();
  await throughTestIssuer(page, login);
}

test('single sign-on (OIDC) signs in an existing member by verified email, with a session row', async ({ page }) => {
  const sql = e2eSql();
  const count = async () =>
    (
      await sql<{ n: number }[]>`
        select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = 'admin@demo.test'`
    )[0]!.n;
  const before = await count();
  await signInWithSso(page, 'member');
  await expect(page).toHaveURL(/\/queue$/);
  expect(await count()).toBe(before + 1);
  await page.goto('/settings/security');
  await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first()).toContainText('This device');
});

for (const [login, why] of [
  ['stranger', 'a verified email that belongs to no member'],
  ['unverified', "a member's email the issuer has not verified"],
] as const) {
  test(`single sign-on refuses ${why}`, async ({ page }) => {
    const [{ n: users }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from users`;
    await signInWithSso(page, login);
    await expect(page).toHaveURL(/\/signin\?.*error=AccessDenied/);
    await expect(
      page.getByRole('alert').filter({ hasText: 'That account does not belong to a member here' }),
    ).toHaveText('That account does not belong to a member here, or its email is not verified.');
    await page.goto('/queue');
    await expect(page).toHaveURL(/\/signin/);
    const [{ n: after }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from users`;
    expect(after).toBe(users);
  });
}
