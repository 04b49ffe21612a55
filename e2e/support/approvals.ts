import { expect, type Page } from '@playwright/test';
import { e2eSql } from './db';

/** The demo workspace's "Posts need approval" (each approvals spec turns it off again for the specs after it). */
export async function setDemoApproval(on: boolean) {
  await e2eSql()`update workspaces set approval_required = ${on} where slug = 'demo'`;
}

/**
 * Composes a post to @demo_support as the signed-in member — now, or on a day two days ahead (`later`) — and
 * opens its page; returns the post id.
 */
export async function composeAndOpen(page: Page, text: string, options: { later?: boolean } = {}) {
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByLabel('Text').fill(text);
  if (options.later) {
    const later = new Date(Date.now() + 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByLabel('Schedule').check();
    await page
      .getByLabel(/Date and time/)
      .fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T10:30`);
  }
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent for approval' })).toBeVisible();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expect(page).toHaveURL(/\/posts\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

export async function deliveryStatuses(postId: string) {
  const rows = await e2eSql()<{ status: string }[]>`select status from deliveries where post_id = ${postId}`;
  return rows.map((r) => r.status);
}

export async function decisionsOf(postId: string) {
  return e2eSql()<
    { decision: string; deciderName: string; comment: string | null; approvalLinkId: string | null; revision: number }[]
  >`select decision, decider_name as "deciderName", comment, approval_link_id as "approvalLinkId", revision
    from approval_decisions where post_id = ${postId} order by revision`;
}

/** Live copies of exactly this text on the sandbox platform's own records. */
export async function copiesOf(text: string) {
  const [row] = await e2eSql()<{ n: number }[]>`
    select count(*)::int as n from sandbox.posts where text = ${text} and deleted_at is null`;
  return row!.n;
}

/** An admin's "Create client link" on the post page: the link, shown once. */
export async function createClientLink(page: Page, postId: string) {
  await page.goto(`/posts/${postId}`);
  await page.getByRole('button', { name: 'Create client link' }).click();
  const field = page.getByLabel('Client link');
  await expect(field).toHaveValue(/\/approve\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  return field.inputValue();
}
