import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { hashPassword } from '../../lib/auth/password';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const SENT = 'If an account uses this email, a reset link is on its way. It works once, for one hour.';

// A workspace of its own (the demo workspaces' Outbox stays as other specs expect it): an admin whose Outbox must not
// show the reset link (no SMTP_URL in the e2e server) and the member who forgot their password.
async function workspaceWithMember() {
  const sql = e2eSql();
  const id = randomUUID().slice(0, 8);
  const admin = { email: `pw-admin-${id}@test.test`, password: 'outbox reader passphrase' };
  const member = `pw-member-${id}@test.test`;
  const [ws] = await sql`insert into workspaces (slug, name) values (${`pw-${id}`}, ${`Reset ${id}`}) returning id`;
  const [a] = await sql`insert into users (email, name, password_hash)
    values (${admin.email}, 'Reset Admin', ${await hashPassword(admin.password)}) returning id`;
  const [m] = await sql`insert into users (email, name, password_hash)
    values (${member}, 'Forgetful Member', ${await hashPassword('the password I forgot')}) returning id`;
  await sql`insert into memberships (workspace_id, user_id, role) values (${ws!.id}, ${a!.id}, 'admin'), (${ws!.id}, ${m!.id}, 'manager')`;
  return { admin, member };
}

test('forgot password: the email is stored for the member only (not in the admin’s Outbox), its link sets a new password once, sign-in works with it', async ({
  page,
  browser,
}) => {
  const { admin, member } = await workspaceWithMember();

  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // An unknown email gets the same answer as a member's.
  await page.getByLabel('Email').fill(`nobody-${randomUUID()}@test.test`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText(SENT);
  await page.getByLabel('Email').fill(member);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText(SENT);

  // The stored email, as the member's mailbox would get it (no SMTP_URL in the e2e server): there once, with the link.
  const storedFor = () => e2eSql()`select body from outbox_emails where to_address = ${member} and recipient_only`;
  await expect.poll(async () => (await storedFor()).length).toBe(1);
  const link = /https?:\/\/\S+\/password\?token=\S+/.exec((await storedFor())[0]!.body as string)![0];
  // The workspace admin's Outbox does not show it (a member's reset link would let the admin take the account over).
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.email, admin.password);
  await adminPage.goto('/outbox');
  await expect(adminPage.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(adminPage.getByRole('listitem', { name: 'Reset your Semel password' })).toHaveCount(0);
  await adminContext.close();

  // The member, in a fresh browser: a weak password is refused beside the field, then a good one is set.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await memberPage.goto(link);
  await expect(memberPage.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await memberPage.getByLabel('New password').fill('qwerty123456');
  await memberPage.getByRole('button', { name: 'Save password' }).click();
  await expect(memberPage.getByText('This password is on a list of commonly used passwords')).toBeVisible();
  await expect(memberPage.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true');
  await memberPage.getByLabel('New password').fill('a brand new remembered passphrase');
  await memberPage.getByRole('button', { name: 'Save password' }).click();
  await expect(memberPage.getByRole('status')).toContainText('Your password is set');

  // The link works once.
  await memberPage.goto(link);
  await expect(memberPage.getByRole('main').getByRole('alert')).toContainText('This link has been used or has expired');

  // The old password no longer signs in; the new one does.
  await memberPage.goto('/signin');
  await memberPage.getByLabel('Email').fill(member);
  await memberPage.getByLabel('Password').fill('the password I forgot');
  await memberPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(memberPage.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password.');
  await signIn(memberPage, member, 'a brand new remembered passphrase');
  await memberContext.close();
});
