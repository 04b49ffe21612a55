import { expect, type Page } from '@playwright/test';
import { e2eSql } from './db';

/**
 * A thread composed to one account went out as a chain: each part's delivery shows Sent on the post page, the
 * sandbox holds one copy per part, each replying to the part before it (by the id its API names it with), and
 * every part's delivery took one attempt.
 */
export async function expectThreadChain(page: Page, handle: string, network: string, texts: string[]) {
  for (const [i] of texts.entries()) {
    const delivery = page.getByRole('region', { name: `Part ${i + 1} of ${texts.length} to ${handle} on ${network}` });
    await expect(delivery.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  }
  const copies = await e2eSql()<{ text: string; in_reply_to_id: string | null; platform_id: string }[]>`
    select p.text, p.in_reply_to_id,
      case when a.platform = 'bluesky' then 'at://' || a.platform_user_id || '/app.bsky.feed.post/' || p.record_key
        else p.id::text end as platform_id
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where p.text = any(${texts})`;
  const chain = texts.map((text) => copies.filter((c) => c.text === text));
  expect(chain.map((c) => c.length)).toEqual(texts.map(() => 1));
  expect(chain[0]![0]!.in_reply_to_id).toBeNull();
  for (let i = 1; i < texts.length; i++) expect(chain[i]![0]!.in_reply_to_id).toBe(chain[i - 1]![0]!.platform_id);
  const deliveries = await e2eSql()<{ status: string; attempts: number }[]>`
    select d.status, (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${texts[0]!} and p.kind = 'thread'`;
  expect(deliveries).toHaveLength(texts.length);
  expect(deliveries.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
}
