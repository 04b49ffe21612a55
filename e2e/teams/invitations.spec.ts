import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('an admin creates "Acme", invites a manager (one email in the Outbox); the manager signs up from the link and sees Acme', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const slug = `acme-${randomUUID().slice(0, 6)}`;
  const email = `manager-${randomUUID().slice(0, 8)}@acme.test`;
  await signIn(page, 'admin@demo.test');

  await page.getByRole('banner').getByRole('link', { name: 'New workspace' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Acme');
  await page.getByLabel('Slug', { exact: true }).fill(slug);
  await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Workspace' })).toHaveValue(slug);

  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await members.getByRole('combobox', { name: 'Role', exact: true }).selectOption('manager');
  await members.getByRole('button', { name: 'Send invitation' }).click();
  await expect(members.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  await expect(members.getByRole('list', { name: 'Invitations' })).toContainText(email);

  // Without SMTP_URL the email is kept in the Outbox: exactly one, for the invited address.
  await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: email })).toHaveCount(
    1,
  );
  const stored = await e2eSql()<{ body: string }[]>`select body from outbox_emails where to_address = ${email}`;
  expect(stored).toHaveLength(1);
  const link = /https?:\/\/\S+\/invite\/\S+/.exec(stored[0]!.body)![0];
  const [invitation] = await e2eSql()<{ token_hash: string }[]>`
    select token_hash from workspace_invitations where email = ${email}`;
  expect(link).not.toContain(invitation!.token_hash);

  // A fresh browser: no session, no cookies. The manager signs up from the link.
  const invitee = await browser.newContext();
  const other = await invitee.newPage();
  await other.goto(new URL(link).pathname);
  await expect(other.getByRole('heading', { name: 'Join Acme' })).toBeVisible();
  await other.getByLabel('Your name').fill('Mia Manager');
  await other.getByLabel('Password').fill('short');
  await other.getByRole('button', { name: 'Create account and join' }).click();
  await expect(other.getByText('Use at least 12 characters.')).toBeVisible();
  await other.getByLabel('Password').fill('a long enough passphrase');
  await other.getByRole('button', { name: 'Create account and join' }).click();
  await expect(other).toHaveURL(/\/queue$/);
  await expect(other.getByRole('banner')).toContainText('Acme');
  await expect(other.getByRole('banner').getByText('manager', { exact: true })).toBeVisible();
  await expect(other.getByTestId('current-user')).toContainText(email);

  // The link was single use: opening it again says so.
  await other.goto(new URL(link).pathname);
  await expect(other.getByText('This invitation has already been used.')).toBeVisible();
  const rows = await e2eSql()<{ role: string }[]>`
    select m.role from memberships m join users u on u.id = m.user_id join workspaces w on w.id = m.workspace_id
    where u.email = ${email} and w.slug = ${slug}`;
  expect(rows).toEqual([{ role: 'manager' }]);
  await invitee.close();
});
