import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { expectOneCopyWithImage, randomImage } from '../support/media';
import { connectThroughSandboxOAuth } from '../support/oauth';

test('an admin connects Facebook through its OAuth consent: each page they administer becomes an account; a post and a photo go out once each', async ({
  page,
}) => {
  // A connect flow (two pages) and two publishes, each checked on the platform's records: longer than the default.
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'Facebook', path: 'facebook' }, 'Authorize Semel');

  // One Facebook Login, two accounts: the pages the new sandbox user administers (GET /me/accounts).
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected Sandbox Page \d{4}, Sandbox Page \d{4} B on Facebook\.$/);
  const [, pageName, second] = /^Connected (Sandbox Page \d{4}), (Sandbox Page \d{4} B) on/.exec(
    (await status.textContent()) ?? '',
  )!;
  const connected = page.getByRole('list', { name: 'Connected accounts', exact: true });
  await expect(connected.getByRole('listitem', { name: pageName!, exact: true })).toBeVisible();
  await expect(connected.getByRole('listitem', { name: second!, exact: true })).toBeVisible();
  const accounts = await e2eSql()<
    { handle: string; platform_user_id: string; sandbox: boolean; base_url: string; token_status: string }[]
  >`select handle, platform_user_id, sandbox, base_url, token_status from social_accounts
    where provider = 'facebook' and handle in (${pageName!}, ${second!}) order by handle`;
  expect(accounts).toEqual([
    {
      handle: pageName,
      platform_user_id: expect.stringMatching(/^\d{18}1$/),
      sandbox: true,
      base_url: '/api/sandbox/facebook',
      token_status: 'ok',
    },
    {
      handle: second,
      platform_user_id: expect.stringMatching(/^\d{18}2$/),
      sandbox: true,
      base_url: '/api/sandbox/facebook',
      token_status: 'ok',
    },
  ]);

  // A post to the second page (its name is no prefix of the other's): one feed post on Facebook, named
  // `{page-id}_{post-id}`; its link opens it.
  const target = second!;
  const text = `Hello from Semel to Facebook ${randomUUID()}`;
  await postNowAndOpen(page, target, text);
  const delivery = page.getByRole('region', { name: `Delivery to ${target}` });
  await expect(delivery.locator('header').getByText('Sent', { exact: true })).toBeVisible();
  const copies = await e2eSql()<{ id: string; author: string }[]>`
    select p.id::text, a.platform_user_id as author
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where p.text = ${text}`;
  expect(copies).toEqual([{ id: expect.any(String), author: accounts[1]!.platform_user_id }]);
  const postId = `${accounts[1]!.platform_user_id}_${copies[0]!.id}`;
  const [row] = await e2eSql()<{ status: string; external_id: string; attempts: number }[]>`
    select d.status, d.external_id, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(row).toEqual({ status: 'sent', external_id: postId, attempts: 1 });
  const link = delivery.getByRole('link', { name: 'View on platform' });
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup.locator('body')).toContainText(text);
  await expect(popup.locator('body')).toContainText(postId);
  await popup.close();

  // A photo with its caption: uploaded as the photo post's bytes, published once.
  const image = await randomImage();
  const pictured = `A photo on Facebook ${randomUUID()}`;
  await postNowAndOpen(page, target, pictured, { image });
  await expectDeliverySent(page, target);
  await expectOneCopyWithImage(pictured, image);
  const [pictureRow] = await e2eSql()<{ status: string; attempts: number }[]>`
    select d.status, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${pictured}`;
  expect(pictureRow).toEqual({ status: 'sent', attempts: 1 });
});
