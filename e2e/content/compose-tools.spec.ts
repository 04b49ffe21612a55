import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// The composer's content tools (docs/content.md): start from a template (its variables filled), insert a snippet with
// `/`, write a first comment — then one post with its text, its first comment as X's part 1, and LinkedIn without one.

const accountId = async (handle: string) =>
  (
    await e2eSql()<{ id: string }[]>`
      select a.id from social_accounts a join workspaces w on w.id = a.workspace_id
      where w.slug = 'demo' and a.handle = ${handle}`
  )[0]!.id;

test('compose with a template, a snippet and a first comment: one post, its comment on X only', async ({ page }) => {
  const tag = randomUUID().slice(0, 8);
  const [x, linkedin] = [await accountId('@demo_support'), await accountId('Demo Agency (page)')];
  await e2eSql()`
    insert into snippets (workspace_id, name, kind, text)
    values ((select id from workspaces where slug = 'demo'), ${`sig${tag}`}, 'signature', ${`— The Demo team ${tag}`})`;
  await e2eSql()`
    insert into post_templates (workspace_id, name, text, account_ids, time_of_day)
    values ((select id from workspaces where slug = 'demo'), ${`Launch ${tag}`}, 'New in store: {{product}}!',
      ${[x, linkedin]}::uuid[], '10:30')`;

  await signIn(page, 'manager@demo.test');
  await page.goto('/compose');
  await page.getByLabel('Template', { exact: true }).selectOption({ label: `Launch ${tag}` });
  await page.getByRole('button', { name: 'Apply template' }).click();
  await expect(page.getByText('Fill this in')).toBeVisible(); // a variable left blank is refused
  await page.getByLabel('{{product}}').fill(`Lamp ${tag}`);
  await page.getByRole('button', { name: 'Apply template' }).click();
  const text = page.getByLabel('Text', { exact: true });
  await expect(text).toHaveValue(`New in store: Lamp ${tag}!`);
  await expect(page.getByRole('checkbox', { name: /Demo Support/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Demo Agency on LinkedIn/ })).toBeChecked();

  // A snippet from `/`: the list opens under the text, Enter inserts the one chosen.
  await text.click();
  await text.press('End');
  await text.pressSequentially(` /sig${tag.slice(0, 3)}`);
  const list = page.getByRole('listbox', { name: 'Snippets' });
  await expect(list.getByRole('option', { name: new RegExp(`/sig${tag}`) })).toBeVisible();
  await text.press('Enter');
  await expect(list).toBeHidden();
  await expect(text).toHaveValue(`New in store: Lamp ${tag}! — The Demo team ${tag}`);

  await page.getByLabel('First comment (optional)').fill(`Shop it: https://shop.example.com/${tag}`);
  await expect(page.getByText(/Demo Agency \(page\) publish without it/)).toBeVisible();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Scheduled/ })).toBeVisible();

  const [post] = await e2eSql()<{ id: string; text: string; first_comment: string; scheduled_at: Date }[]>`
    select id, text, first_comment, scheduled_at from posts where text like ${`New in store: Lamp ${tag}%`}`;
  expect(post).toMatchObject({
    text: `New in store: Lamp ${tag}! — The Demo team ${tag}`,
    first_comment: `Shop it: https://shop.example.com/${tag}`,
  });
  expect(post!.scheduled_at.getTime()).toBeGreaterThan(Date.now());
  const parts = await e2eSql()<{ account_id: string; part: number; status: string }[]>`
    select account_id, part, status from deliveries where post_id = ${post!.id} order by account_id, part`;
  expect(parts.map((d) => `${d.account_id}:${d.part}`).sort()).toEqual([`${x}:0`, `${x}:1`, `${linkedin}:0`].sort());
  expect(parts.every((d) => d.status === 'scheduled')).toBe(true);

  // The post page shows the comment as a delivery of its own, waiting for its post.
  await page.goto(`/posts/${post!.id}`);
  await expect(page.getByRole('region', { name: 'First comment on @demo_support' })).toBeVisible();
});
