import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

/** The email preference for review and failure notices (the inbox's new-message preference is a group of its own). */
const reviewMail = (page: Page) => page.getByRole('group', { name: /Email me about needs review/ });

const modeOf = async (email: string) =>
  (
    await e2eSql()<{ email_mode: string }[]>`
      select p.email_mode from notification_preferences p
      join users u on u.id = p.user_id join workspaces w on w.id = p.workspace_id
      where u.email = ${email} and w.slug = 'demo'`
  )[0]?.email_mode;

test('a member picks their own email preference; only admins set the Slack webhook, internal URLs refused', async ({
  browser,
  page: managerPage,
  baseURL,
}) => {
  await signIn(managerPage, 'manager@demo.test');
  await managerPage.goto('/settings/notifications');
  await reviewMail(managerPage)
    .getByRole('radio', { name: /Daily digest/ })
    .check();
  await managerPage.getByRole('button', { name: 'Save email preference' }).click();
  await expect(managerPage.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(await modeOf('manager@demo.test')).toBe('digest');
  await managerPage.reload();
  await expect(reviewMail(managerPage).getByRole('radio', { name: /Daily digest/ })).toBeChecked();
  // A manager sees the Slack setting but cannot change it.
  await expect(managerPage.getByLabel('Slack incoming-webhook URL')).toBeDisabled();

  const page = await (await browser.newContext()).newPage();
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings/notifications');
  await expect(reviewMail(page).getByRole('radio', { name: /Immediately/ })).toBeChecked(); // the admin's own, untouched
  const url = page.getByLabel('Slack incoming-webhook URL');
  await url.fill('http://127.0.0.1:9/services/T000/B000/secret');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText(/private or internal|loopback/i).first()).toBeVisible();
  expect(
    await e2eSql()`select 1 from slack_webhooks s join workspaces w on w.id = s.workspace_id where w.slug = 'demo'`,
  ).toHaveLength(0);

  // The e2e server allows `localhost` by name (OUTBOUND_ALLOWED_HOSTS), as a self-hoster's LAN receiver would be.
  const secretPath = '/services/T000/B000/e2e-secret-token';
  const host = new URL(baseURL!).port;
  await url.fill(`http://localhost:${host}${secretPath}`);
  const captured = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  await page.getByRole('button', { name: 'Save webhook' }).click();
  const saveRequest = await captured;
  await expect(page.getByTestId('slack-status')).toHaveText(
    `Slack messages go to an incoming webhook on localhost:${host}.`,
  );
  // The URL is a secret: sealed in the database and never sent back to the browser.
  const [stored] = await e2eSql()<{ url_sealed: string }[]>`
    select url_sealed from slack_webhooks s join workspaces w on w.id = s.workspace_id where w.slug = 'demo'`;
  expect(stored!.url_sealed).not.toContain('e2e-secret-token');
  await page.reload();
  expect(await page.content()).not.toContain('e2e-secret-token');

  // "Send test message" goes through the real sender: this server is no Slack (it redirects), and the answer is shown as it came.
  await page.getByRole('button', { name: 'Send test message' }).click();
  await expect(
    page.getByText(/Slack did not take it \(Slack answered HTTP \d{3}\); it will be retried\./),
  ).toBeVisible();

  // Removed again, so later specs' events are not posted to it; its unsent messages are given up.
  await page.getByRole('button', { name: 'Remove Slack webhook' }).click();
  await expect(page.getByTestId('slack-status')).toHaveText('No Slack webhook is set.');
  const pending = await e2eSql()`
    select 1 from notification_sends s join workspaces w on w.id = s.workspace_id
    where w.slug = 'demo' and s.channel = 'slack' and s.status = 'pending'`;
  expect(pending).toHaveLength(0);
  // The admin's "Save webhook" request, posted with the manager's session: refused on the server, nothing stored.
  const { cookie: _adminCookie, ...headers } = saveRequest.headers();
  void _adminCookie;
  const replay = await managerPage.request.fetch(saveRequest.url(), {
    method: 'POST',
    headers,
    data: saveRequest.postDataBuffer()!,
  });
  expect(await replay.text()).toContain('You do not have permission');
  expect(
    await e2eSql()`select 1 from slack_webhooks s join workspaces w on w.id = s.workspace_id where w.slug = 'demo'`,
  ).toHaveLength(0);

  // Restore the manager's default for the specs after this one.
  await e2eSql()`delete from notification_preferences where user_id = (select id from users where email = 'manager@demo.test')`;
});
