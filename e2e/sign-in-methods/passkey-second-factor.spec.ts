import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { newMember } from '../support/members';
import { addVirtualAuthenticator } from '../support/webauthn';

const sessionCount = async (email: string) => {
  const [{ n }] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`;
  return n;
};
const challengeCount = async (email: string) => {
  const [{ n }] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from webauthn_challenges c join users u on u.id = c.user_id
    where u.email = ${email} and c.purpose = 'second_factor'`;
  return n;
};

test('a passkey as the second step: a member without TOTP adds one, and the password alone then asks for it', async ({
  page,
}) => {
  await addVirtualAuthenticator(page);
  const email = await newMember('viewer', { domain: 'passkey-second-factor.test' });
  await signIn(page, email);
  await page.goto('/settings/security');
  await expect(page.getByTestId('two-factor-status')).toContainText('Off');
  await page.getByLabel('Passkey name').fill('Virtual key');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Virtual key" added.' })).toBeVisible();
  await expect(page.getByTestId('two-factor-status')).toContainText('On with your passkeys');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  const before = await sessionCount(email);

  // The right password is not enough now: the form asks for the passkey (no code field: this account has no TOTP).
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const form = page.locator('form').filter({ has: page.getByLabel('Password') });
  await expect(form.getByRole('alert')).toHaveText('Use your passkey to finish signing in.');
  const step = page.getByRole('group', { name: 'Second step' });
  const usePasskey = step.getByRole('button', { name: 'Use a passkey' });
  await expect(usePasskey).toBeFocused();
  await expect(page.getByLabel('Authentication code')).toHaveCount(0);
  expect(await sessionCount(email)).toBe(before);
  await page.goto('/queue');
  await expect(page).toHaveURL(/\/signin/);

  // A wrong password gets the generic error and no challenge, even from the second step.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(usePasskey).toBeFocused();
  await page.getByLabel('Password').fill('not-the-password');
  await usePasskey.click();
  await expect(form.getByRole('alert')).toHaveText('Wrong email or password.');
  expect(await challengeCount(email)).toBe(0);
  expect(await sessionCount(email)).toBe(before);

  // The right password again, and the passkey from the keyboard: signed in, with a session and the passkey's use.
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await usePasskey.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/queue$/);
  await expect(page.getByTestId('current-user')).toContainText(email);
  expect(await sessionCount(email)).toBe(before + 1);
  expect(await challengeCount(email)).toBe(0); // used up
  const [stored] = await e2eSql()<{ last_used_at: Date | null }[]>`
    select p.last_used_at from passkeys p join users u on u.id = p.user_id where u.email = ${email}`;
  expect(stored!.last_used_at).not.toBeNull();
});

test('a workspace that requires two-factor sign-in: a member sent to enrol can add a passkey instead of an app', async ({
  page,
}) => {
  await addVirtualAuthenticator(page);
  // A workspace of its own that requires it, so the demo workspace's other members are not sent to enrol.
  const slug = `strict-${randomUUID().slice(0, 8)}`;
  await e2eSql()`insert into workspaces (slug, name, require_two_factor) values (${slug}, 'Strict', true)`;
  const email = await newMember('manager', { domain: 'passkey-second-factor.test', workspace: slug });

  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/two-factor$/);
  await expect(page.getByText('Your workspace requires two-factor sign-in.')).toBeVisible();
  const passkeys = page.getByRole('region', { name: 'Or add a passkey' });
  await passkeys.getByLabel('Passkey name').fill('Virtual key');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Virtual key" added.' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Two-factor sign-in is on with your passkeys' }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/queue$/);
  await page.goto('/calendar');
  await expect(page).toHaveURL(/\/calendar$/);
});
