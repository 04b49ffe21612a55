import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

test('a post whose call times out after the platform stored it shows "Ambiguous — being verified", then sent with its link — one copy', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'X');

  await page.goto('/sandbox');
  const knobs = page.getByRole('form', { name: 'Fault knobs', exact: true });
  await knobs.getByLabel('Account').selectOption({ label: `${handle} (X)` });
  await knobs.getByLabel('Timeout after commit (stored, no answer)').fill('1');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(knobs.getByRole('status')).toHaveText('Faults set on 1 account.');

  const text = `Unknown outcome ${randomUUID()}`;
  await postNowAndOpen(page, handle, text);

  const delivery = page.getByRole('region', { name: `Delivery to ${handle}` });
  await expect(delivery.getByText('Ambiguous — being verified').first()).toBeVisible({ timeout: 20_000 });
  await expect(delivery.getByRole('status')).toContainText('it will not be sent twice');
  await expect(delivery.getByRole('link', { name: 'View on platform' })).toBeVisible({ timeout: 30_000 });
  await expect(delivery.getByText('Reconciliation check: found')).toBeVisible();
  await expect(delivery.getByText('Sent', { exact: true }).first()).toBeVisible();

  const [copies] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
  expect(copies!.n).toBe(1);
  const [row] = await e2eSql()<
    { status: string }[]
  >`select d.status from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(row!.status).toBe('sent');
});
