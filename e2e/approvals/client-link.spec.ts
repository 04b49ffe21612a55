import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import {
  composeAndOpen,
  copiesOf,
  createClientLink,
  decisionsOf,
  deliveryStatuses,
  setDemoApproval,
} from '../support/approvals';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test.beforeAll(() => setDemoApproval(true));
// A production server on a shared two-core machine: several sign-ins and a publish per test.
test.describe.configure({ timeout: 180_000 });

test.afterAll(() => setDemoApproval(false));

test('the client approves through the link in a fresh browser context, without signing in', async ({
  browser,
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  const text = `For the client ${randomUUID()}`;
  const postId = await composeAndOpen(page, text);
  const url = await createClientLink(page, postId);

  const client = await browser.newContext();
  expect(await client.cookies()).toEqual([]); // no session of any kind
  const clientPage = await client.newPage();
  await clientPage.goto(url);
  await expect(clientPage).toHaveURL(url); // not sent to sign in
  await expect(clientPage.getByRole('heading', { name: 'Posts waiting for your approval' })).toBeVisible();
  const card = clientPage.getByRole('article');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('figure', { name: /Preview on X for @demo_support/ })).toContainText(text);
  await card.getByLabel('Your name (optional)').fill('Carla');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('status')).toHaveText('Approved: it will be published at its time.');

  const [decision] = await decisionsOf(postId);
  expect(decision).toMatchObject({ decision: 'approved', deciderName: 'Carla (client link)' });
  expect(decision!.approvalLinkId).not.toBeNull();
  await expect.poll(() => deliveryStatuses(postId), { timeout: 30_000 }).toEqual(['sent']);
  expect(await copiesOf(text)).toBe(1);

  // Reopened, the link shows the decision; the admin sees it on the post page.
  await clientPage.reload();
  await expect(clientPage.getByTestId('approval-state')).toHaveText('Approved — by Carla (client link)');
  await page.goto(`/posts/${postId}`);
  await expect(page.getByRole('list', { name: 'Decisions' })).toContainText('approved by Carla (client link)');

  // A revoked link is refused at once with a clear page.
  await page.goto('/approvals');
  const linkId = url.split('/approve/')[1]!.split('.')[0]!;
  const revoke = page.getByRole('button', { name: 'Revoke One post' });
  const listed = await revoke.count();
  await revoke.first().click();
  await expect(revoke).toHaveCount(listed - 1); // gone from the active links
  const [row] = await e2eSql()<{ revoked: boolean }[]>`
    select revoked_at is not null as revoked from approval_links where id = ${linkId}`;
  expect(row!.revoked).toBe(true);
  await clientPage.reload();
  await expect(clientPage.getByRole('heading', { name: 'Link revoked' })).toBeVisible();
  await client.close();
});

test('request changes with a comment reaches the author in the bell', async ({ browser, page }) => {
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, 'manager@demo.test');
  const text = `Change me ${randomUUID()}`;
  const postId = await composeAndOpen(manager, text, { later: true });

  await signIn(page, 'admin@demo.test');
  const url = await createClientLink(page, postId);
  const client = await browser.newContext();
  const clientPage = await client.newPage();
  await clientPage.goto(url);
  const card = clientPage.getByRole('article');
  // Request changes needs a comment: refused with the reason, nothing recorded.
  await card.getByRole('button', { name: 'Request changes' }).click();
  await expect(card.getByText('Say what should change').first()).toBeVisible();
  expect(await decisionsOf(postId)).toEqual([]);
  await card.getByLabel('Comment').fill('Please use the new logo');
  await card.getByRole('button', { name: 'Request changes' }).click();
  await expect(card.getByRole('status')).toHaveText('Changes requested: the author has been told.');
  expect(await deliveryStatuses(postId)).toEqual(['awaiting_approval']);

  await manager.goto('/queue');
  await manager.getByRole('button', { name: /Notifications, \d+ unread/ }).click();
  const notice = manager.getByRole('region', { name: 'Notifications' }).getByRole('link').filter({
    hasText: 'Please use the new logo',
  });
  await expect(notice).toContainText('Changes requested');
  await notice.click();
  await expect(manager).toHaveURL(new RegExp(`/posts/${postId}$`));
  await expect(manager.getByRole('list', { name: 'Decisions' })).toContainText(
    'changes requested by The client (approval link)',
  );
  await expect(manager.getByRole('list', { name: 'Decisions' })).toContainText('Please use the new logo');
  await client.close();
  await managerContext.close();
});
