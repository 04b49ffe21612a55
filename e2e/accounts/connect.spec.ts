import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

test('an admin connects a sandbox account in one click, checks it and disconnects it (history kept)', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'X');

  const [row] =
    await e2eSql()`select id, sandbox, credentials_encrypted, token_last4, disconnected_at from social_accounts where handle = ${handle}`;
  expect(row).toMatchObject({ sandbox: true, disconnected_at: null });
  expect(row!.credentials_encrypted).toMatch(/^v2\./); // sealed bound to the account id (AES-GCM associated data)
  const item = page
    .getByRole('list', { name: 'Connected accounts', exact: true })
    .getByRole('listitem', { name: handle, exact: true });
  await expect(item).toContainText(`token …${row!.token_last4}`);

  await item.getByRole('button', { name: `Check connection of ${handle}` }).click();
  await expect(item.getByRole('status')).toHaveText(`Connected as ${handle}.`);

  await item.getByRole('button', { name: `Disconnect ${handle}` }).click();
  await expect(page.getByRole('list', { name: 'Disconnected accounts' })).toContainText(handle);
  await expect(
    page
      .getByRole('list', { name: 'Connected accounts', exact: true })
      .getByRole('listitem', { name: handle, exact: true }),
  ).toHaveCount(0);
  const [after] = await e2eSql()`select disconnected_at from social_accounts where id = ${row!.id}`;
  expect(after!.disconnected_at).not.toBeNull();
});

test('an admin connects an X account by base URL, user id and token; the check rejects a wrong token', async ({
  page,
  baseURL,
}) => {
  // A user on the sandbox platform with a token we know (as if issued by the platform).
  const token = `sbx_${randomBytes(16).toString('hex')}`;
  const userId = String(Date.now());
  await e2eSql()`insert into sandbox.accounts (platform, platform_user_id, handle, display_name, token_hash)
    values ('x', ${userId}, ${'@manual_' + userId.slice(-4)}, 'Manual X', ${createHash('sha256').update(token).digest('hex')})`;

  await signIn(page, 'admin@demo.test');
  await page.goto('/accounts');
  const form = page.getByRole('form', { name: 'X account', exact: true });
  // An absolute URL to this server's loopback address is refused by the outbound guard, naming the class only.
  await form.getByLabel('API base URL').fill(`${baseURL}/api/sandbox/x`);
  await form.getByLabel('User id').fill('12345');
  await form.getByLabel('OAuth 2.0 user access token').fill(token);
  await form.getByRole('button', { name: 'Check and connect X' }).click();
  await expect(form.getByRole('status')).toContainText('private or internal network');
  // The e2e server allows `localhost` by name (OUTBOUND_ALLOWED_HOSTS in playwright.config.ts), like a self-hoster's LAN instance.
  await form.getByLabel('API base URL').fill(`${baseURL!.replace('127.0.0.1', 'localhost')}/api/sandbox/x`);
  await form.getByLabel('User id').fill('not-a-number');
  await form.getByLabel('OAuth 2.0 user access token').fill('sbx_wrong_token_123');
  await form.getByRole('button', { name: 'Check and connect X' }).click();
  await expect(form.getByText('The numeric X user id')).toBeVisible();

  await form.getByLabel('User id').fill(userId);
  await form.getByRole('button', { name: 'Check and connect X' }).click();
  await expect(form.getByRole('status')).toContainText('Connection check failed');
  await expect(form.getByRole('status')).toContainText('401');

  await form.getByLabel('OAuth 2.0 user access token').fill(token);
  await form.getByRole('button', { name: 'Check and connect X' }).click();
  await expect(form.getByRole('status')).toHaveText(`Connected @manual_${userId.slice(-4)} on X.`);
  await expect(page.getByRole('list', { name: 'Connected accounts', exact: true })).toContainText(
    `@manual_${userId.slice(-4)}`,
  );
  const [row] =
    await e2eSql()`select sandbox, token_last4, credentials_encrypted from social_accounts where platform_user_id = ${userId}`;
  expect(row).toMatchObject({ sandbox: false, token_last4: token.slice(-4) });
  expect(row!.credentials_encrypted).not.toContain(token);
});

test('a viewer sees the accounts but cannot connect or disconnect', async ({ page }) => {
  await signIn(page, 'viewer@demo.test');
  await page.goto('/accounts');
  await expect(page.getByText('Only admins can connect or disconnect accounts.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Connected accounts', exact: true })).toContainText('@demo_brand');
  await expect(page.getByRole('button', { name: /Connect sandbox/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Disconnect/ })).toHaveCount(0);
});
