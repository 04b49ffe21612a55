import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';

test('an admin connects an X sandbox account through OAuth (consent page, Authorize), composes a post, and it is published once', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/accounts');
  const card = page.getByRole('region', { name: 'Connect with X' });
  // Keyboard: the connect control is a link reached and followed without a mouse.
  const start = card.getByRole('link', { name: 'Connect with X (sandbox)' });
  await start.focus();
  await page.keyboard.press('Enter');

  // The sandbox's consent page (its own OAuth server), as X's would be.
  await expect(page).toHaveURL(/\/api\/sandbox\/x\/oauth\/authorize\?/);
  const authorize = new URL(page.url());
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toMatch(/\/api\/oauth\/x\/callback$/);
  await expect(page.getByRole('heading', { name: /Authorize Semel/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'A new sandbox user' })).toBeChecked();
  await page.getByRole('button', { name: 'Authorize Semel' }).click();

  // Back on /accounts through the callback: the state was checked, the code exchanged, the identity read.
  await expect(page).toHaveURL(/\/accounts\?oauth=connected/);
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected @sandbox_\d{4} on X\.$/);
  const handle = /Connected (@\S+) on X\./.exec((await status.textContent()) ?? '')![1]!;
  await expect(
    page
      .getByRole('list', { name: 'Connected accounts', exact: true })
      .getByRole('listitem', { name: handle, exact: true }),
  ).toBeVisible();

  const [account] = await e2eSql()<
    {
      id: string;
      sandbox: boolean;
      base_url: string;
      credentials_encrypted: string;
      token_status: string;
      expires_in_s: number;
    }[]
  >`select id, sandbox, base_url, credentials_encrypted, token_status,
      extract(epoch from token_expires_at - now())::int as expires_in_s
    from social_accounts where handle = ${handle}`;
  expect(account).toMatchObject({ sandbox: true, base_url: '/api/sandbox/x', token_status: 'ok' });
  expect(account!.credentials_encrypted).toMatch(/^v2\./);
  expect(account!.expires_in_s).toBeGreaterThan(7000); // X's two-hour access token, renewed by the token job
  const [state] = await e2eSql()<{ used: boolean }[]>`
    select used_at is not null as used from oauth_states order by created_at desc limit 1`;
  expect(state!.used).toBe(true);

  const text = `Connected through OAuth ${randomUUID()}`;
  await postNowAndOpen(page, handle, text);
  const delivery = page.getByRole('region', { name: `Delivery to ${handle}` });
  await expect(delivery.locator('header').getByText('Sent', { exact: true })).toBeVisible();

  const [copies] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from sandbox.posts p join sandbox.accounts a on a.id = p.account_id
    where p.text = ${text} and a.handle = ${handle}`;
  expect(copies!.n).toBe(1);
  const [row] = await e2eSql()<{ status: string; attempts: number }[]>`
    select d.status, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(row).toEqual({ status: 'sent', attempts: 1 });
});
