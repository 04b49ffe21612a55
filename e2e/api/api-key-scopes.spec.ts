import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

test('a key created with only posts:read can read but not write; its scopes and last use show in Settings → API', async ({
  page,
  request,
}) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings/api');
  const name = `Reader ${randomUUID().slice(0, 8)}`;
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('checkbox', { name: /posts:write/ }).uncheck();
  await page.getByRole('checkbox', { name: /accounts:read/ }).uncheck();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const token = (await page.getByTestId('new-api-key').textContent())!.trim();
  const [stored] = await e2eSql()<
    { scopes: string[]; last_used_at: Date | null }[]
  >`select scopes, last_used_at from api_keys where name = ${name}`;
  expect(stored).toEqual({ scopes: ['posts:read'], last_used_at: null });

  const headers = { authorization: `Bearer ${token}` };
  const read = await request.get('/api/v1/posts?limit=1', { headers });
  expect(read.status()).toBe(200);
  expect(read.headers()['ratelimit-limit']).toBe('600');
  expect(Number(read.headers()['ratelimit-remaining'])).toBe(599);

  const write = await request.post('/api/v1/posts', {
    headers: { ...headers, 'idempotency-key': randomUUID() },
    data: { text: 'no', accountIds: [randomUUID()] },
  });
  expect(write.status()).toBe(403);
  expect(write.headers()['content-type']).toBe('application/problem+json');
  expect((await write.json()).detail).toContain('posts:write');

  await page.reload();
  const row = page.getByRole('listitem').filter({ hasText: name });
  await expect(row.getByLabel('Scopes')).toHaveText('posts:read');
  await expect(row).toContainText('last used');
  await expect(row).not.toContainText('never used');
});

test('creating a key with no scope is refused with a field error', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings/api');
  await page.getByLabel('Key name').fill(`None ${randomUUID().slice(0, 8)}`);
  for (const scope of ['posts:read', 'posts:write', 'accounts:read'])
    await page.getByRole('checkbox', { name: new RegExp(scope) }).uncheck();
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByText('Choose at least one scope')).toBeVisible();
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
});
