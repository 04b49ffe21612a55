import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { copiesOf, composeAndOpen, deliveryStatuses, setDemoApproval } from '../support/approvals';
import { signIn } from '../support/auth';

const CRON = { authorization: 'Bearer e2e-cron-secret-0123456789' };

// A production server on a shared two-core machine: several sign-ins and a publish per test.
test.describe.configure({ timeout: 180_000 });

test.afterAll(() => setDemoApproval(false));

test("a manager's post waits for approval: never published, shown as waiting, published once an admin approves", async ({
  browser,
  page,
  request,
}) => {
  // The admin turns the rule on in Settings → General.
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  await page.getByLabel('Posts need approval').check();
  await page.getByRole('button', { name: 'Save approval rule' }).click();
  await expect(page.getByText('Posts now need approval')).toBeVisible();

  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, 'manager@demo.test');
  const text = `Needs a yes ${randomUUID()}`;
  const postId = await composeAndOpen(manager, text);
  await expect(manager.getByText('Awaiting approval, planned for')).toBeVisible();
  await expect(manager.getByText('Awaiting approval', { exact: true }).first()).toBeVisible();
  // A manager sees it waiting but has no Approve button.
  await expect(manager.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // Due now, and publishers run: it stays waiting, nothing reaches the network.
  for (let i = 0; i < 2; i++) expect((await request.post('/api/cron/publish', { headers: CRON })).status()).toBe(200);
  expect(await deliveryStatuses(postId)).toEqual(['awaiting_approval']);
  expect(await copiesOf(text)).toBe(0);

  // This week, waiting posts only (the month view may open on next month, and a busy day folds chips into "+N more").
  await manager.goto('/calendar?view=week&status=awaiting_approval');
  const chip = manager.locator(`[data-testid="calendar-chip"][data-post-id="${postId}"]`);
  await expect(chip).toContainText('Awaiting approval');
  await expect(chip).toHaveAttribute('data-status', 'awaiting_approval');
  await manager.goto('/queue');
  await expect(manager.getByTestId('queue-row').filter({ hasText: text })).toContainText('Awaiting approval');

  // The admin approves it from the Approvals list; it goes out once.
  await page.goto('/approvals');
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card.getByRole('figure', { name: /Preview on X for @demo_support/ })).toContainText(text);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('status')).toHaveText('Approved: it will be published at its time.');
  await expect.poll(() => deliveryStatuses(postId), { timeout: 30_000 }).toEqual(['sent']);
  expect(await copiesOf(text)).toBe(1);
  await managerContext.close();
});
