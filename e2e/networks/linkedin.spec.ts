import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { expectOneCopyWithImage, randomImage } from '../support/media';
import { connectThroughSandboxOAuth } from '../support/oauth';

const LINKEDIN = { label: 'LinkedIn', path: 'linkedin' };

const linkedinAccountCount = async () =>
  (
    await e2eSql()<{ n: number }[]>`select count(*)::int as n from social_accounts a
      join memberships m on m.workspace_id = a.workspace_id join users u on u.id = m.user_id
      where u.email = 'admin@demo.test' and a.provider = 'linkedin'`
  )[0]!.n;

test('an admin connects LinkedIn through OAuth: the member and the page they administer become accounts; a post and an image to the page are published once', async ({
  page,
}) => {
  // A connect flow (two accounts) and two publishes, each checked on the platform's records: longer than the default.
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, LINKEDIN, 'Authorize Semel');

  // One sign-in, two accounts: the member, then the organization page they administer (organizationAcls).
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected Sandbox Admin \d{4}, Sandbox Company \d{4} on LinkedIn\.$/);
  const [, member, pageName] = /^Connected (Sandbox Admin \d{4}), (Sandbox Company \d{4}) on/.exec(
    (await status.textContent()) ?? '',
  )!;
  const connected = page.getByRole('list', { name: 'Connected accounts', exact: true });
  await expect(connected.getByRole('listitem', { name: member!, exact: true })).toBeVisible();
  await expect(connected.getByRole('listitem', { name: pageName!, exact: true })).toBeVisible();
  const accounts = await e2eSql()<
    { handle: string; platform_user_id: string; sandbox: boolean; base_url: string; token_status: string }[]
  >`select handle, platform_user_id, sandbox, base_url, token_status from social_accounts
    where handle in (${member!}, ${pageName!}) order by handle`;
  const digits = pageName!.slice(-4);
  expect(accounts).toEqual([
    {
      handle: member,
      platform_user_id: expect.stringMatching(new RegExp(`^urn:li:person:sbx\\d+${digits}$`)),
      sandbox: true,
      base_url: '/api/sandbox/linkedin',
      token_status: 'ok',
    },
    {
      handle: pageName,
      platform_user_id: expect.stringMatching(new RegExp(`^urn:li:organization:\\d+${digits}$`)),
      sandbox: true,
      base_url: '/api/sandbox/linkedin',
      token_status: 'ok',
    },
  ]);

  // A post to the page: one share on LinkedIn, its link on the post page opens it.
  const text = `Hello from Semel to LinkedIn ${randomUUID()}`;
  await postNowAndOpen(page, pageName!, text);
  const delivery = page.getByRole('region', { name: `Delivery to ${pageName}` });
  await expect(delivery.locator('header').getByText('Sent', { exact: true })).toBeVisible();
  const copies = await e2eSql()<{ id: string; kind: string; author: string }[]>`
    select p.id::text, p.kind, a.platform_user_id as author
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where p.text = ${text}`;
  expect(copies).toEqual([{ id: expect.any(String), kind: 'post', author: accounts[1]!.platform_user_id }]);
  const urn = `urn:li:share:${copies[0]!.id}`;
  const [row] = await e2eSql()<{ status: string; external_id: string; attempts: number }[]>`
    select d.status, d.external_id, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(row).toEqual({ status: 'sent', external_id: urn, attempts: 1 });
  const link = delivery.getByRole('link', { name: 'View on platform' });
  await expect(link).toHaveAttribute(
    'href',
    new RegExp(`/api/sandbox/linkedin/rest/posts/${encodeURIComponent(urn)}$`),
  );
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup.locator('body')).toContainText(text);
  await expect(popup.locator('body')).toContainText(urn);
  await popup.close();

  // An image with alt text: uploaded through the Images API (initializeUpload, then the bytes), then one post with it.
  const image = await randomImage();
  const pictured = `A picture on LinkedIn ${randomUUID()}`;
  await postNowAndOpen(page, pageName!, pictured, { image });
  await expectDeliverySent(page, `${pageName}`);
  await expectOneCopyWithImage(pictured, image);
  const [pictureRow] = await e2eSql()<{ status: string; attempts: number }[]>`
    select d.status, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${pictured}`;
  expect(pictureRow).toEqual({ status: 'sent', attempts: 1 });
});

test('a denied LinkedIn consent returns to /accounts with a clear message and connects nothing', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const before = await linkedinAccountCount();
  await connectThroughSandboxOAuth(page, LINKEDIN, 'Deny');
  await expect(page).toHaveURL(/\/accounts\?oauth=denied/);
  await expect(page.getByRole('status').filter({ hasText: /denied/ })).toHaveText(
    'LinkedIn: Access was denied on the network’s consent page: nothing was connected.',
  );
  expect(await linkedinAccountCount()).toBe(before);
});

test('LinkedIn takes a comment only as a post’s first: the server refuses a reply to a LinkedIn account with a field error, storing nothing', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/compose');
  // The seeded demo workspace's sandbox LinkedIn page.
  await page
    .getByRole('checkbox', { name: /· LinkedIn$/ })
    .first()
    .check();
  await page.getByRole('radio', { name: 'Reply', exact: true }).check();
  await page.getByLabel('Replying to (post id or link)').fill('urn:li:share:7000000000000000000');
  const text = `A reply LinkedIn cannot take ${randomUUID()}`;
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please fix the highlighted fields.' })).toBeVisible();
  await expect(
    page
      .getByRole('group', { name: 'Accounts', exact: true })
      .getByText(/LinkedIn takes a comment only as a thread's second part/),
  ).toBeVisible();
  const [stored] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  expect(stored!.n).toBe(0);
});

test('LinkedIn takes a thread of two (the post and its first comment): the server refuses a third part with a field error, storing nothing', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/compose');
  await page
    .getByRole('checkbox', { name: /· LinkedIn$/ })
    .first()
    .check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  // The composer says what part 2 is, and that a third is too many; the server refuses it anyway when it is sent.
  const note = page.getByRole('note').filter({ hasText: 'On LinkedIn, part 2 is the post’s first comment' });
  await expect(note).toContainText('LinkedIn takes 2 parts at most');
  const tag = randomUUID();
  await page.getByLabel('Part 1', { exact: true }).fill(`A thread LinkedIn cannot take ${tag}: one`);
  await page.getByLabel('Part 2', { exact: true }).fill(`A thread LinkedIn cannot take ${tag}: two`);
  await page.getByRole('button', { name: 'Add part' }).click();
  await page.getByLabel('Part 3', { exact: true }).fill(`A thread LinkedIn cannot take ${tag}: three`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please fix the highlighted fields.' })).toBeVisible();
  await expect(page.locator('#parts-error')).toHaveText(
    /^LinkedIn takes a post and 1 comment \(.+\): at most 2 parts$/,
  );
  const [stored] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from post_parts where text like ${`A thread LinkedIn cannot take ${tag}%`}`;
  expect(stored!.n).toBe(0);
});
