import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { throughTestIssuer } from '../support/oidc';

/** A workspace's admin invites `email` on Settings → Members; returns the link's path from the Outbox email. */
async function invite(page: Page, email: string, role: 'manager' | 'viewer', admin = 'admin@demo.test') {
  await signIn(page, admin);
  await page.goto('/settings');
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await members.getByRole('combobox', { name: 'Role', exact: true }).selectOption(role);
  await members.getByRole('button', { name: 'Send invitation', exact: true }).click();
  await expect(members.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  // The address may have other mail in the Outbox (the seeded admin's notifications): only the invitation counts.
  const invitations = () =>
    e2eSql()<{ body: string }[]>`
      select body from outbox_emails where to_address = ${email} and subject like '%] Join %'`;
  await expect.poll(async () => (await invitations()).length).toBe(1);
  const [{ body }] = await invitations();
  return new URL(/https?:\/\/\S+\/invite\/\S+/.exec(body)![0]).pathname;
}

/** A fresh browser (no session, no cookies) opens the link and continues with single sign-on as `login`. */
async function continueWithSso(browser: Browser, link: string, login: string, workspace = 'Demo Agency') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Join ${workspace}` })).toBeVisible();
  await page.getByRole('button', { name: 'Continue with Test SSO' }).click();
  await throughTestIssuer(page, login);
  return { context, page };
}

const invitationOf = async (email: string) =>
  (
    await e2eSql()<{ accepted_at: Date | null }[]>`
      select accepted_at from workspace_invitations where email = ${email}`
  )[0]!;
const membershipsOf = (email: string) =>
  e2eSql()<{ slug: string; role: string }[]>`
    select w.slug, m.role from memberships m join users u on u.id = m.user_id join workspaces w on w.id = m.workspace_id
    where u.email = ${email} order by w.slug`;

test('an invitee with no account continues with SSO from the link and lands in the workspace as a member', async ({
  page,
  browser,
}) => {
  const link = await invite(page, 'sso-invitee@example.test', 'manager');
  const { context, page: invitee } = await continueWithSso(browser, link, 'invitee');
  await expect(invitee).toHaveURL(/\/queue$/);
  await expect(invitee.getByRole('banner')).toContainText('Demo Agency');
  await expect(invitee.getByRole('banner').getByText('manager', { exact: true })).toBeVisible();
  await expect(invitee.getByTestId('current-user')).toHaveText('Ivo Invitee · sso-invitee@example.test');

  expect(await membershipsOf('sso-invitee@example.test')).toEqual([{ slug: 'demo', role: 'manager' }]);
  const [user] = await e2eSql()<{ password_hash: string | null; sessions: number }[]>`
    select u.password_hash, (select count(*)::int from sessions s where s.user_id = u.id) as sessions
    from users u where u.email = 'sso-invitee@example.test'`;
  expect(user).toEqual({ password_hash: null, sessions: 1 });
  expect((await invitationOf('sso-invitee@example.test')).accepted_at).not.toBeNull();
  const audited = await e2eSql()<{ action: string }[]>`
    select action from audit_log where target_type in ('invitation', 'member')
      and detail->>'email' = 'sso-invitee@example.test' order by id`;
  expect(audited.map((a) => a.action)).toEqual(['invitation.created', 'invitation.accepted', 'member.added']);

  // The link was single use, and the invitation cookie went with the callback.
  await invitee.goto(link);
  await expect(invitee.getByText('This invitation has already been used.')).toBeVisible();
  expect((await context.cookies()).map((c) => c.name)).not.toContain('semel-sso-invitation');
  await context.close();
});

test('a member of another workspace joins through SSO and lands in the workspace that invited them', async ({
  page,
  browser,
}) => {
  // Other Agency invites the Demo Agency admin: "Demo Agency" sorts first, yet the session opens in Other Agency.
  const link = await invite(page, 'admin@demo.test', 'viewer', 'admin@other.test');
  const { context, page: invitee } = await continueWithSso(browser, link, 'member', 'Other Agency');
  await expect(invitee).toHaveURL(/\/queue$/);
  await expect(invitee.getByRole('banner').getByRole('combobox', { name: 'Workspace' })).toHaveValue('other');
  await expect(invitee.getByRole('banner').getByText('viewer', { exact: true })).toBeVisible();
  expect(await membershipsOf('admin@demo.test')).toEqual([
    { slug: 'demo', role: 'admin' },
    { slug: 'other', role: 'viewer' },
  ]);
  await context.close();
});

test('a different verified email is refused on the invite page: nobody joins, the invitation stays pending', async ({
  page,
  browser,
}) => {
  const link = await invite(page, 'sso-someone@example.test', 'viewer');
  const [{ n: users }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from users`;
  const { context, page: stranger } = await continueWithSso(browser, link, 'stranger');
  await expect(stranger).toHaveURL(/\/invite\/[^?]+\?error=sso_email_mismatch$/);
  await expect(stranger.getByRole('alert').filter({ hasText: 'different email' })).toHaveText(
    'Your single sign-on account has a different email from this invitation. Nothing changed: use the invited account, or accept another way.',
  );
  // The invitation is still open: the page offers it again, and nothing was written.
  await expect(stranger.getByRole('button', { name: 'Continue with Test SSO' })).toBeVisible();
  expect((await invitationOf('sso-someone@example.test')).accepted_at).toBeNull();
  const [{ n: after }] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from users`;
  expect(after).toBe(users);
  await stranger.goto('/queue');
  await expect(stranger).toHaveURL(/\/signin/);
  await context.close();
});
