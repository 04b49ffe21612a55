import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16) + ':00Z';

function csvFor(tag: string) {
  return [
    'text,accounts,scheduled_at,thread_group,part',
    `"${tag} first, with a comma",@demo_brand;@demo_support,${inDays(20)},,`,
    `${tag} second,@demo_brand,${inDays(21)},,`,
    `${tag} thread 1,@demo_brand,${inDays(22)},t,1`,
    `${tag} thread 2,,,t,2`,
    `${tag} broken,@nobody_here,${inDays(22)},,`,
  ].join('\r\n');
}

async function upload(page: Page, name: string, csv: string) {
  await page.goto('/import');
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('table', { name: 'Import rows' })).toBeVisible();
}

const postsTagged = async (tag: string) =>
  e2eSql()<{ id: string; text: string; kind: string }[]>`
    select id, text, kind from posts where text like ${tag + '%'} order by text`;

test('a CSV imported in the UI, then again, then through the API: the same posts, each once', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // three uploads, two imports and an API call on a shared 2-core machine
  const tag = `Import ${randomUUID().slice(0, 8)}`;
  const csv = csvFor(tag);
  await signIn(page, 'admin@demo.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/import$/);

  // Upload → preview: three new posts (four rows, one a thread part), one invalid row with its error.
  await upload(page, 'campaign.csv', csv);
  await expect(page.getByTestId('import-preview-counts')).toContainText('5 rows — 4 new, 0 already imported');
  const rows = page.getByTestId('import-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(4)).toContainText('Invalid');
  await expect(rows.nth(4)).toContainText('no connected account "@nobody_here"');
  expect(await postsTagged(tag)).toHaveLength(0); // a preview writes nothing

  // Import: the button is disabled while it runs; the counts show at the end.
  const importButton = page.getByRole('button', { name: 'Import (3 new)' });
  await importButton.click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported campaign.csv' })).toContainText(
    '4 created, 0 already imported, 0 look like edited copies, 1 invalid',
  );
  await expect(rows.filter({ hasText: 'Created' })).toHaveCount(4);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download errors CSV' }).click();
  const errors = await (await download).path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(errors, 'utf8')).toContain('@nobody_here');

  const created = await postsTagged(tag);
  expect(created.map((p) => [p.text, p.kind])).toEqual([
    [`${tag} first, with a comma`, 'post'],
    [`${tag} second`, 'post'],
    [`${tag} thread 1`, 'thread'],
  ]);
  await page.goto('/queue');
  await expect(page.getByRole('list', { name: 'Posts' }).getByText(`${tag} second`)).toBeVisible();

  // The same file again: every row already imported; Import creates nothing.
  await upload(page, 'campaign.csv', csv);
  await expect(page.getByTestId('import-preview-counts')).toContainText('5 rows — 0 new, 4 already imported');
  await expect(rows.filter({ hasText: 'Already imported from row' })).toHaveCount(4);
  await page.getByRole('button', { name: 'Import (0 new)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported campaign.csv' })).toContainText(
    '0 created, 4 already imported',
  );
  expect(await postsTagged(tag)).toEqual(created);

  // The same file through the API (a key made in Settings → API): the same posts, nothing new.
  await page.goto('/settings/api');
  const name = `Import key ${randomUUID().slice(0, 8)}`;
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const token = (await page.getByTestId('new-api-key').textContent())!.trim();
  const response = await request.post('/api/v1/imports', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
    multipart: { file: { name: 'campaign.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { counts: Record<string, number>; rows: { postId?: string }[] };
  expect(body.counts).toEqual({ rows: 5, new: 0, alreadyImported: 4, editedCopies: 0, invalid: 1 });
  expect(body.rows.slice(0, 3).map((r) => r.postId)).toEqual(created.map((p) => p.id));
  expect(await postsTagged(tag)).toEqual(created);
});
