import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';

test('the proof-of-publication report shows a post sent directly, downloads as CSV, and prints without the app around it', async ({
  page,
}) => {
  test.slow();
  await signIn(page, 'admin@demo.test');
  const text = `For the client report ${randomUUID()}`;
  await postNowAndOpen(page, '@demo_brand · X', text);
  await expectDeliverySent(page, '@demo_brand');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Proof of publication' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('@demo_brand');
  await expect(row).toContainText('Sent directly');
  await expect(row).toContainText('The platform confirmed the post in answer to the call.');
  await expect(row.getByRole('link', { name: 'View on X' })).toHaveAttribute('href', /^http/);
  const totals = page.locator('dl[aria-label="Totals"]');
  await expect(totals).toContainText('Sent directly');

  // The CSV: the same row, as a spreadsheet opens it; no internal ids.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^publication-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const line = csv.split('\r\n').find((l) => l.includes(text));
  // A cell starting with @ would be read as a formula: the account is quoted with an apostrophe, as OWASP advises.
  expect(line).toContain(",X,'@demo_brand,");
  expect(line).toContain('Sent directly');
  const [ids] = await e2eSql()<{ post: string; delivery: string; account: string }[]>`
    select p.id as post, d.id as delivery, d.account_id as account
    from posts p join deliveries d on d.post_id = p.id where p.text = ${text}`;
  for (const id of Object.values(ids!)) expect(csv).not.toContain(id);

  // Printed (or saved as PDF): the report alone, links spelled out.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Download CSV' })).toBeHidden();
  await expect(page.getByRole('form', { name: 'Report period' })).toBeHidden();
  await expect(row).toContainText('http');
  await page.emulateMedia({ media: 'screen' });

  // A period that ends before it starts: a field error, no report.
  await page.getByLabel('From').fill('2026-12-31');
  await page.getByLabel('To (included)').fill('2026-12-01');
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page.getByText('The end date is before the start date')).toBeVisible();
  await expect(page.getByLabel('To (included)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('table', { name: 'Deliveries' })).toHaveCount(0);
});
