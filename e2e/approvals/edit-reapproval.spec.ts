import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { composeAndOpen, decisionsOf, deliveryStatuses, setDemoApproval } from '../support/approvals';
import { signIn } from '../support/auth';

test.beforeAll(() => setDemoApproval(true));
// A production server on a shared two-core machine: several sign-ins and a publish per test.
test.describe.configure({ timeout: 180_000 });

test.afterAll(() => setDemoApproval(false));

test('an edit after approval sends the post back for approval', async ({ browser, page }) => {
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, 'manager@demo.test');
  const text = `Approved then edited ${randomUUID()}`;
  const postId = await composeAndOpen(manager, text, { later: true });

  await signIn(page, 'admin@demo.test');
  await page.goto(`/posts/${postId}`);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('article', { name: /^Post for/ }).getByRole('status')).toHaveText(
    'Approved: it will be published at its time.',
  );
  expect(await deliveryStatuses(postId)).toEqual(['scheduled']);

  await manager.reload();
  await expect(manager.getByText('Scheduled for')).toBeVisible();
  await manager.getByLabel('Text', { exact: true }).fill(`${text} (edited)`);
  await manager.getByRole('button', { name: 'Save changes' }).click();
  await expect(manager.getByText('Saved. The new version waits for approval before it is published.')).toBeVisible();
  expect(await deliveryStatuses(postId)).toEqual(['awaiting_approval']);
  await manager.reload();
  await expect(manager.getByText('Awaiting approval, planned for')).toBeVisible();

  // Back on the Approvals list with the new text; approving it approves revision 2.
  await page.goto('/approvals');
  const card = page.getByRole('article').filter({ hasText: `${text} (edited)` });
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('status')).toHaveText('Approved: it will be published at its time.');
  expect((await decisionsOf(postId)).map((d) => [d.revision, d.decision])).toEqual([
    [1, 'approved'],
    [2, 'approved'],
  ]);
  expect(await deliveryStatuses(postId)).toEqual(['scheduled']);
  await managerContext.close();
});
