import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { addVirtualAuthenticator } from '../support/webauthn';

const sessionCount = async (email: string) => {
  const [{ n }] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`;
  return n;
};

test('a passkey: added on Settings → Security, then signing in with it alone (no password) makes a session', async ({
  page,
}) => {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await signIn(page, 'manager@demo.test');
  await page.goto('/settings/security');
  // A name is required: refused in the form, nothing registered.
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Give the passkey a name (e.g. "Work laptop").')).toBeVisible();
  await page.getByLabel('Passkey name').fill('Virtual key');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey "Virtual key" added.' })).toBeVisible();
  const row = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem', { name: 'Virtual key' });
  await expect(row).toContainText('last used never');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  const before = await sessionCount('manager@demo.test');

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/queue$/);
  expect(await sessionCount('manager@demo.test')).toBe(before + 1);
  const [stored] = await e2eSql()<{ last_used_at: Date | null; counter: number }[]>`
    select p.last_used_at, p.counter from passkeys p join users u on u.id = p.user_id
    where u.email = 'manager@demo.test' and p.name = 'Virtual key'`;
  expect(stored!.last_used_at).not.toBeNull();

  // This browser's session is the one the passkey made; the passkey shows its use.
  await page.goto('/settings/security');
  await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first()).toContainText('This device');
  await expect(row).not.toContainText('last used never');

  // Removed, the same authenticator no longer signs anyone in.
  await row.getByRole('button', { name: 'Remove passkey Virtual key' }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This passkey was not accepted. Try again.' })).toBeVisible();
  await page.goto('/queue');
  await expect(page).toHaveURL(/\/signin/);
});
