import { randomInt, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

const SNOWFLAKE_EPOCH_MS = 1_288_834_974_657n;

test('two copies on a platform that forgives nothing: never "sent"; the admin deletes the extra copy from /review, once', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'Mastodon');
  const sql = e2eSql();
  const [account] = await sql<{ id: string; sandbox_id: string }[]>`
    select a.id, s.id as sandbox_id from social_accounts a
    join sandbox.accounts s on s.platform::text = a.provider::text and s.platform_user_id = a.platform_user_id
    where a.handle = ${handle}`;

  // A platform with no idempotency and no duplicate check, whose answer is lost after it stored the post.
  const faults = await page.request.put('/api/sandbox/faults', {
    data: { accountId: account!.id, profile: 'plain', timeoutAfterCommit: 1 },
  });
  expect(faults.status()).toBe(200);
  // A copy of the same text is already there, as an earlier attempt could have left it.
  const text = `Two copies ${randomUUID().slice(0, 8)}`;
  const earlierId = String(((BigInt(Date.now()) - SNOWFLAKE_EPOCH_MS) << 22n) | BigInt(randomInt(0, 2 ** 22)));
  await sql`insert into sandbox.posts (id, account_id, kind, text, created_at) values (${earlierId}, ${account!.sandbox_id}, 'post', ${text}, now())`;

  await postNowAndOpen(page, handle, text);
  const delivery = page.getByRole('region', { name: `Delivery to ${handle}` });
  await expect(delivery.getByText('Needs review').first()).toBeVisible({ timeout: 30_000 });
  await expect(delivery.getByText('2 copies on the platform').first()).toBeVisible();
  await expect(delivery.getByText('Sent', { exact: true })).toHaveCount(0);

  await page.goto('/review');
  const row = page.getByRole('listitem').filter({ hasText: text });
  await expect(row.getByText('2 copies on the platform').first()).toBeVisible();
  await expect(row.getByRole('radio', { name: 'Delete the extra copies' })).toBeChecked();
  page.once('dialog', (d) => void d.accept());
  const captured = page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  await row.getByRole('button', { name: 'Confirm' }).click();
  await expect(row.getByRole('status')).toHaveText('Deleted 1 extra copy; one copy stays live.');
  // The same request again (a double submit) changes nothing.
  const request = await captured;
  const repeat = await page.request.fetch(request.url(), {
    method: 'POST',
    headers: request.headers(),
    data: request.postDataBuffer()!,
  });
  expect(await repeat.text()).toContain('no extra copies');

  const live = await sql<
    { id: string }[]
  >`select id::text from sandbox.posts where text = ${text} and deleted_at is null`;
  expect(live.map((p) => p.id)).toEqual([earlierId]);
  const [after] = await sql<{ status: string; external_id: string; id: string }[]>`
    select d.id, d.status, d.external_id from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(after).toMatchObject({ status: 'sent', external_id: earlierId });
  const audit = await sql`select action from audit_log where target_id = ${after!.id}::text`;
  expect(audit.map((a) => a.action)).toEqual(['review.delete_extras']);
});
