import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { composeAndOpen, decisionsOf, deliveryStatuses, setDemoApproval } from '../support/approvals';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test.beforeAll(() => setDemoApproval(true));
// A production server on a shared two-core machine: several sign-ins and a publish per test.
test.describe.configure({ timeout: 180_000 });

test.afterAll(() => setDemoApproval(false));

test('two tabs approving at once produce one decision; the other tab is told who decided', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const text = `Two tabs ${randomUUID()}`;
  const postId = await composeAndOpen(page, text, { later: true });
  const second = await page.context().newPage();
  await second.goto(`/posts/${postId}`);
  await page.reload();
  const tabs = [page, second];
  // Both clicks go out before either answer is back.
  await Promise.all(tabs.map((tab) => tab.getByRole('button', { name: 'Approve' }).click()));
  const messages = await Promise.all(
    tabs.map(async (tab) => {
      const status = tab.getByRole('article', { name: /^Post for/ }).getByRole('status');
      await expect(status).not.toBeEmpty();
      return status.textContent();
    }),
  );
  expect(messages.filter((m) => m === 'Approved: it will be published at its time.')).toHaveLength(1);
  expect(
    messages.filter((m) => /^Already approved by Ada Admin at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/.test(m!)),
  ).toHaveLength(1);
  expect(await decisionsOf(postId)).toEqual([
    { decision: 'approved', deciderName: 'Ada Admin', comment: null, approvalLinkId: null, revision: 1 },
  ]);
  const [audit] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from audit_log where target_id = ${postId}`;
  expect(audit!.n).toBe(1);
  expect(await deliveryStatuses(postId)).toEqual(['scheduled']);
});
