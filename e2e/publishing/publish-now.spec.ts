import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('"Post now" on a healthy sandbox account is sent once: the queue shows it sent with a link, the sandbox holds one copy', async ({
  page,
}) => {
  await signIn(page, 'manager@demo.test');
  const text = `Going out now ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled' })).toBeVisible();

  await page.goto('/queue');
  const row = page.getByTestId('queue-row').filter({ hasText: text });
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: 'View' })).toBeVisible();

  const [copies] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
  expect(copies!.n).toBe(1);
  const [delivery] = await e2eSql()<{ status: string; external_id: string }[]>`
    select d.status, d.external_id from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(delivery).toMatchObject({ status: 'sent' });
  expect(delivery!.external_id).toBeTruthy();
});
