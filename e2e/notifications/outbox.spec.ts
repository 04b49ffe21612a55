import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

test('a delivery held for review (account disconnected) → its email appears once in the development Outbox', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'X');
  // A post scheduled two days ahead on the new account: disconnecting the account holds it in needs review.
  const text = `Held for review ${randomUUID()}`;
  const sql = e2eSql();
  const [account] = await sql<{ id: string; workspace_id: string }[]>`
    select id, workspace_id from social_accounts where handle = ${handle} and disconnected_at is null`;
  const [post] = await sql<{ id: string }[]>`
    insert into posts (workspace_id, text, scheduled_at, source)
    values (${account!.workspace_id}, ${text}, now() + interval '2 days', 'api') returning id`;
  await sql`insert into deliveries (workspace_id, post_id, account_id, due_at)
    values (${account!.workspace_id}, ${post!.id}, ${account!.id}, now() + interval '2 days')`;

  await page.goto('/accounts');
  await page
    .getByRole('list', { name: 'Connected accounts', exact: true })
    .getByRole('listitem', { name: handle, exact: true })
    .getByRole('button', { name: `Disconnect ${handle}` })
    .click();
  await expect(page.getByRole('list', { name: 'Disconnected accounts' })).toContainText(handle);

  // SMTP_URL is unset here, so the sidebar lists the Outbox; the notifications job stores the email within seconds.
  await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  const emails = page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: text });
  const mine = emails.filter({ hasText: 'to admin@demo.test' });
  await expect(async () => {
    await page.reload();
    await expect(mine).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await mine.getByText('[Demo Agency] Needs review').click();
  await expect(mine.getByText('A delivery needs review: account disconnected')).toBeVisible();

  // The database agrees: one stored email per member for this event, the admin's among them, none twice.
  const stored = await sql<{ to_address: string; n: number }[]>`
    select o.to_address, count(*)::int as n from outbox_emails o
    join notification_sends s on s.id = o.send_id
    join notifications n on n.id = s.notification_id
    join deliveries d on d.id = n.delivery_id
    where d.post_id = ${post!.id} and n.kind = 'needs_review'
    group by o.to_address`;
  expect(stored.find((r) => r.to_address === 'admin@demo.test')?.n).toBe(1);
  expect(stored.every((r) => r.n === 1)).toBe(true);
  // A later pass of the job adds nothing.
  await page.reload();
  await expect(mine).toHaveCount(1);
});
