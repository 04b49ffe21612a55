import { expect, request, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { connectSandboxAccount } from '../support/sandbox';

async function publishTestPost(page: Page, handle: string, text: string) {
  const form = page.getByRole('form', { name: 'Publish a test post', exact: true });
  await form.getByLabel('Account').selectOption({ label: `${handle} (Mastodon)` });
  await form.getByLabel('Text').fill(text);
  await form.getByRole('button', { name: 'Publish test post' }).click();
  await expect(form.getByRole('button', { name: 'Publish test post' })).toBeEnabled({ timeout: 20_000 });
  return form.getByRole('status', { name: 'Test post result' });
}

test('connect a sandbox account, publish a test post, see it on the live timeline; a fault knob takes effect', async ({
  page,
}) => {
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'Mastodon');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox' }).click();
  await expect(page).toHaveURL(/\/sandbox$/);
  await expect(page.getByRole('heading', { name: 'Why “timeout after commit” matters' })).toBeVisible();

  const timeline = page.getByRole('region', { name: `Timeline of ${handle}` });
  const copies = timeline.getByTestId('copy-count');
  await expect(copies).toHaveText('0');

  const text = `Hello sandbox ${Date.now()}`;
  await expect(await publishTestPost(page, handle, text)).toContainText('sent');
  await expect(timeline.getByRole('list', { name: `Posts of ${handle}` })).toContainText(text);
  await expect(copies).toHaveText('1');
  const stored =
    await e2eSql()`select p.id from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where a.handle = ${handle} and p.text = ${text}`;
  expect(stored).toHaveLength(1);

  // Rate limited: nothing is stored, and the outcome says so.
  const knobs = page.getByRole('form', { name: 'Fault knobs', exact: true });
  await knobs.getByLabel('Account').selectOption({ label: `${handle} (Mastodon)` });
  await knobs.getByLabel('Rate limited (429, nothing stored)').fill('1');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(knobs.getByRole('status')).toHaveText('Faults set on 1 account.');
  await expect(timeline.getByTestId('fault-summary')).toHaveText('Rate limited 100%');
  await expect(await publishTestPost(page, handle, `Limited ${Date.now()}`)).toContainText('not_sent');
  await expect(copies).toHaveText('1');

  // Timeout after commit: the platform stores it, the client hears nothing in time.
  await knobs.getByLabel('Rate limited (429, nothing stored)').fill('0');
  await knobs.getByLabel('Timeout after commit (stored, no answer)').fill('1');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(timeline.getByTestId('fault-summary')).toHaveText('Timeout after commit 100%');
  const late = `Late ${Date.now()}`;
  await expect(await publishTestPost(page, handle, late)).toContainText('ambiguous');
  await expect(copies).toHaveText('2');
  await expect(timeline).toContainText(late);

  // What a naive retry does with that: two copies.
  const demo = page.getByRole('form', { name: 'Naive retry demo', exact: true });
  await demo.getByLabel('Account').selectOption({ label: `${handle} (Mastodon)` });
  await demo.getByRole('button', { name: 'Run naive retry demo' }).click();
  await expect(demo.getByRole('status', { name: 'Naive retry result' })).toContainText(
    'The platform now holds 2 copies',
    { timeout: 20_000 },
  );
  await expect(copies).toHaveText('4');
});

test('a platform profile per account: one that does not fit is refused, one that fits is shown; post links open only for members', async ({
  page,
  baseURL,
}) => {
  await signIn(page, 'admin@demo.test');
  const handle = await connectSandboxAccount(page, 'Mastodon');
  await page.goto('/sandbox');
  const timeline = page.getByRole('region', { name: `Timeline of ${handle}` });
  await expect(timeline.getByTestId('profile')).toHaveText('mastodon-modern');

  const knobs = page.getByRole('form', { name: 'Fault knobs', exact: true });
  await knobs.getByLabel('Account').selectOption({ label: `${handle} (Mastodon)` });
  await knobs.getByLabel('Platform profile').selectOption('x');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(knobs.getByRole('status')).toContainText('does not fit');
  await expect(timeline.getByTestId('profile')).toHaveText('mastodon-modern');

  await knobs.getByLabel('Platform profile').selectOption('mastodon-legacy');
  await knobs.getByLabel(/^Processing time/).fill('13000');
  await knobs.getByLabel(/^Read lag/).fill('60000');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(knobs.getByRole('status')).toHaveText('Faults set on 1 account.');
  await expect(timeline.getByTestId('profile')).toHaveText('mastodon-legacy');
  await expect(timeline.getByTestId('fault-summary')).toHaveText('Processing 13000 ms · Read lag 60000 ms');
  const [stored] =
    await e2eSql()`select f.profile, f.processing_ms, f.read_lag_ms from sandbox.faults f join sandbox.accounts a on a.id = f.account_id where a.handle = ${handle}`;
  expect(stored).toEqual({ profile: 'mastodon-legacy', processing_ms: 13000, read_lag_ms: 60000 });

  // Back to the platform default, then a post whose link opens for this member (and for nobody signed out).
  await knobs.getByLabel('Platform profile').selectOption('');
  await knobs.getByLabel(/^Processing time/).fill('0');
  await knobs.getByLabel(/^Read lag/).fill('0');
  await knobs.getByRole('button', { name: 'Apply faults' }).click();
  await expect(timeline.getByTestId('fault-summary')).toHaveText('No faults');
  const text = `Linked ${Date.now()}`;
  await expect(await publishTestPost(page, handle, text)).toContainText('sent');
  const link = timeline.getByRole('listitem').filter({ hasText: text }).getByRole('link', { name: 'Open' });
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup.locator('body')).toContainText(text);
  const anonymous = await request.newContext({ baseURL });
  expect((await anonymous.get((await link.getAttribute('href'))!)).status()).toBe(401);
  await anonymous.dispose();
});

test('a viewer watches the timeline but has no controls', async ({ page }) => {
  await signIn(page, 'viewer@demo.test');
  await page.goto('/sandbox');
  await expect(page.getByRole('region', { name: 'Timeline of @demo_brand', exact: true })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Fault knobs', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish test post' })).toHaveCount(0);
});
