import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

/** A needs_review delivery in the demo workspace, as reconciliation leaves it (with its evidence). */
async function seedNeedsReview(label: string) {
  const sql = e2eSql();
  const text = `${label} ${randomUUID().slice(0, 8)}`;
  const [ws] = await sql<{ id: string }[]>`select id from workspaces where slug = 'demo'`;
  const [account] = await sql<
    { id: string }[]
  >`select id from social_accounts where workspace_id = ${ws!.id} and provider = 'x' and handle = '@demo_brand'`;
  const [post] = await sql<
    { id: string }[]
  >`insert into posts (workspace_id, text, scheduled_at, source) values (${ws!.id}, ${text}, now() - interval '2 hours', 'api') returning id`;
  const [delivery] = await sql<{ id: string }[]>`
    insert into deliveries (workspace_id, post_id, account_id, status, due_at) values (${ws!.id}, ${post!.id}, ${account!.id}, 'needs_review', now()) returning id`;
  await sql`insert into delivery_events (workspace_id, delivery_id, from_status, to_status, actor, reason) values (${ws!.id}, ${delivery!.id}, 'ambiguous', 'needs_review', 'reconciler:e2e', 'Not found, and too late to publish again on time')`;
  await sql`insert into reconciliations (delivery_id, strategy, decision, evidence, read_count) values (${delivery!.id}, 'x-timeline', 'needs_review', ${sql.json({ read: 3, ids: ['1', '2', '3'] })}, 3)`;
  return { text, deliveryId: delivery!.id };
}

const item = (page: Page, text: string) => page.getByRole('listitem').filter({ hasText: text });

test('an admin resolves a needs_review item as live from /review, with an audit record; a repeat changes nothing', async ({
  page,
}) => {
  const { text, deliveryId } = await seedNeedsReview('Needs a human');
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('link', { name: /Review/ })).toContainText(/\d+/); // the sidebar badge counts it
  await page.goto('/review?age=1.5&account=------------------------------------&state=bogus'); // malformed filters are ignored
  await expect(page.getByRole('region', { name: 'Demo Agency' })).toBeVisible();
  const row = item(page, text);
  await expect(row.getByText('Needs review')).toBeVisible();
  await row.getByText('Evidence from the last check').click();
  await expect(row.getByText('"read": 3')).toBeVisible();
  await row.getByLabel('Link or id of the live post').fill('https://x.com/demo_brand/status/1234567890');
  page.once('dialog', (d) => void d.accept());
  const captured = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  await row.getByRole('button', { name: 'Confirm' }).click();
  await expect(row.getByRole('status')).toHaveText('Marked as sent.');
  // A double submit (the same request again) is harmless: the decision applies once.
  const request = await captured;
  const repeat = await page.request.fetch(request.url(), {
    method: 'POST',
    headers: request.headers(),
    data: request.postDataBuffer()!,
  });
  expect(await repeat.text()).toContain('Already resolved');

  const [after] = await e2eSql()<
    { status: string; external_id: string }[]
  >`select status, external_id from deliveries where id = ${deliveryId}`;
  expect(after).toEqual({ status: 'sent', external_id: '1234567890' });
  const audit = await e2eSql()`select action, actor_user_id from audit_log where target_id = ${deliveryId}`;
  expect(audit).toHaveLength(1);
  expect(audit[0]!.action).toBe('review.live');
});

test('"It is not live — publish now" needs the check box and goes back through the claim path', async ({ page }) => {
  const { text, deliveryId } = await seedNeedsReview('Not live');
  await signIn(page, 'admin@demo.test');
  await page.goto('/review');
  const row = item(page, text);
  await row.getByLabel('It is not live — publish now').check();
  page.on('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Confirm' }).click();
  await expect(row.getByText('Confirm that you checked the account first.')).toBeVisible();
  await row.getByLabel('I checked the account').check();
  await row.getByRole('button', { name: 'Confirm' }).click();
  await expect(row.getByRole('status')).toHaveText('Back in the queue: it will be published once.');
  // The admin's decision restarts the lateness window, so it is published (once), not marked missed.
  await expect
    .poll(
      async () =>
        (await e2eSql()<{ status: string }[]>`select status from deliveries where id = ${deliveryId}`)[0]!.status,
      { timeout: 15_000 },
    )
    .toBe('sent');
  const [copies] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
  expect(copies!.n).toBe(1);
});

test('a manager is refused /review, and the server refuses its actions', async ({ page, browser }) => {
  const first = await seedNeedsReview('Admin only');
  const second = await seedNeedsReview('Still needs review');
  await signIn(page, 'admin@demo.test');
  await page.goto('/review');
  const captured = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  await item(page, first.text).getByLabel('Link or id of the live post').fill('999');
  page.once('dialog', (d) => void d.accept());
  await item(page, first.text).getByRole('button', { name: 'Confirm' }).click();
  const request = await captured;
  await expect(item(page, first.text).getByRole('status')).toHaveText('Marked as sent.');

  const context = await browser.newContext();
  const managerPage = await context.newPage();
  await signIn(managerPage, 'manager@demo.test');
  await managerPage.goto('/review');
  await expect(managerPage.getByText("You don't have access to this page")).toBeVisible();
  // The same server action, posted with the manager's session for another item: refused on the server.
  const body = request.postDataBuffer()!.toString('latin1').replaceAll(first.deliveryId, second.deliveryId);
  const { cookie: _adminCookie, ...headers } = request.headers(); // the manager's own session cookie is sent instead
  void _adminCookie;
  const response = await managerPage.request.fetch(request.url(), {
    method: 'POST',
    headers,
    data: Buffer.from(body, 'latin1'),
  });
  expect(await response.text()).toContain('You do not have permission');
  const [still] = await e2eSql()<{ status: string }[]>`select status from deliveries where id = ${second.deliveryId}`;
  expect(still!.status).toBe('needs_review');
  await context.close();
});
