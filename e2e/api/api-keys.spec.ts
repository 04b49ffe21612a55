import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('an admin creates an API key, schedules a post with it exactly once, and revokes it', async ({
  page,
  request,
}) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings/api');
  const name = `CI key ${randomUUID().slice(0, 8)}`;
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const token = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(token).toMatch(/^sm_live_/);
  const [stored] = await e2eSql()<{ hash: string }[]>`select hash from api_keys where name = ${name}`;
  expect(stored!.hash).not.toContain(token); // only the hash is kept

  const headers = { authorization: `Bearer ${token}` };
  const accounts = await (await request.get('/api/v1/accounts', { headers })).json();
  const accountId = accounts.data[0].id as string;
  const key = randomUUID();
  const text = `From the API ${key}`;
  const send = () =>
    request.post('/api/v1/posts', {
      headers: { ...headers, 'idempotency-key': key },
      data: { text, accountIds: [accountId] },
    });
  const first = await send();
  expect(first.status()).toBe(201);
  const again = await send();
  expect(again.status()).toBe(201);
  expect(again.headers()['idempotent-replayed']).toBe('true');
  expect(await again.text()).toBe(await first.text());
  const [row] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from posts where text = ${text}`;
  expect(row!.n).toBe(1);

  // The post shows in the queue for the workspace's users.
  await page.goto('/queue');
  await expect(page.getByRole('list', { name: 'Posts' }).getByText(text)).toBeVisible();

  await page.goto('/settings/api');
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByText('Key revoked.')).toBeVisible();
  expect((await request.get('/api/v1/accounts', { headers })).status()).toBe(401);
});

test('the OpenAPI document describes the idempotent create', async ({ request }) => {
  const doc = await (await request.get('/api/v1/openapi.json')).json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.paths['/posts'].post.parameters[0].name).toBe('Idempotency-Key');
  expect(doc.components.schemas.CreatePost.properties.text).toBeDefined();
});

test('a manager cannot see or create API keys', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await page.goto('/settings/api');
  await expect(page.getByText('Only admins can create and revoke API keys.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
});
