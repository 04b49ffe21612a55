import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { connectThroughSandboxOAuth } from '../support/oauth';

// A first comment on a LinkedIn page and a Facebook Page (docs/content.md#first-comments): the composer offers it for
// both, and the post goes out with each page's own comment under it, once, after the post.

test('the composer offers a first comment on a LinkedIn page and a Facebook Page: each goes out once, under its post', async ({
  page,
}) => {
  // A Facebook connect and two networks' posts and comments, each checked on the platform's records.
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'Facebook', path: 'facebook' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  const facebook = /, (Sandbox Page \d{4} B) on Facebook\.$/.exec((await status.textContent()) ?? '')![1]!;

  const tag = randomUUID();
  const [text, comment] = [`A post with a comment ${tag}`, `Its first comment ${tag}`];
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Agency on LinkedIn/ }).check();
  await page.getByRole('checkbox', { name: new RegExp(facebook) }).check();
  await page.getByLabel('Text', { exact: true }).fill(text);
  await page.getByLabel('First comment (optional)').fill(comment);
  // Both pages take it, as their own comment; nobody goes without.
  await expect(page.getByText(`as Demo Agency (page)’s comment, ${facebook}’s comment.`)).toBeVisible();
  await expect(page.getByText(/publish without it/)).toHaveCount(0);
  await expect(page.locator('#firstComment-count')).toContainText(`${comment.length}/1250 LinkedIn`);
  await expect(page.locator('#firstComment-count')).toContainText(`${comment.length}/8000 Facebook`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();

  await expect
    .poll(
      async () =>
        (
          await e2eSql()<{ status: string }[]>`
            select d.status from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`
        ).map((d) => d.status),
      { timeout: 30_000 },
    )
    .toEqual(['sent', 'sent', 'sent', 'sent']);
  // On the platform's own records: each page's post once, and one comment of the page's own under it.
  const rows = await e2eSql()<{ author: string; post_author: string; parent_text: string }[]>`
    select a.platform_user_id as author, pa.platform_user_id as post_author, parent.text as parent_text
    from sandbox.posts c join sandbox.accounts a on a.id = c.account_id
    join sandbox.posts parent on parent.id::text = c.in_reply_to_id join sandbox.accounts pa on pa.id = parent.account_id
    where c.text = ${comment} and c.deleted_at is null`;
  expect(rows).toHaveLength(2);
  for (const row of rows) expect(row).toMatchObject({ author: row.post_author, parent_text: text });
  expect(rows.filter((r) => r.author.startsWith('urn:li:organization:'))).toHaveLength(1); // the LinkedIn page
  expect(rows.filter((r) => /^\d+$/.test(r.author))).toHaveLength(1); // the Facebook Page
  const [posts] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
  expect(posts!.n).toBe(2);
  await expect(page.getByRole('region', { name: 'First comment on Demo Agency (page)' })).toBeVisible();
  await expect(page.getByRole('region', { name: `First comment on ${facebook}` })).toBeVisible();
});
