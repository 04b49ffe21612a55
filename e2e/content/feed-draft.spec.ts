import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// A feed item lands as a draft (docs/content.md#feeds): a real RSS feed served by this test on loopback (the server
// under test allows `localhost` with OUTBOUND_ALLOWED_HOSTS, as for the sandbox's own connect), read by "Check now"
// through the outbound guard; a second check sends the ETag back, gets 304 and makes nothing new. An item refused for
// good is tried again by "Retry".

test('a feed item lands as a draft, once', async ({ page }) => {
  const tag = randomUUID().slice(0, 8);
  const requests: (string | null)[] = [];
  const body = `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog ${tag}</title><link>https://blog.example.com</link>
    <description>d</description><item><title>Spring is here ${tag}</title><link>https://blog.example.com/spring-${tag}</link>
    <guid>https://blog.example.com/?p=${tag}</guid><description>Flowers.</description></item></channel></rss>`;
  const server = http.createServer((req, res) => {
    requests.push((req.headers['if-none-match'] as string | undefined) ?? null);
    if (req.headers['if-none-match'] === `"${tag}"`) return res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml', etag: `"${tag}"` }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/feed.xml`;
  try {
    await signIn(page, 'manager@demo.test');
    await page.goto('/feeds');
    await page.getByLabel('Name').fill(`Blog ${tag}`);
    await page.getByLabel('Feed URL (RSS, Atom or JSON Feed)').fill(url);
    await page.getByLabel('New items become').selectOption('draft');
    await page.getByRole('checkbox', { name: '@demo_brand', exact: true }).check();
    await page.getByRole('button', { name: 'Add feed' }).click();
    const feed = page.getByRole('region', { name: `Blog ${tag}` });
    await expect(feed).toBeVisible();
    await feed.getByRole('button', { name: 'Check now' }).click();
    await expect(feed.getByRole('status').filter({ hasText: '1 new item.' })).toBeVisible();
    await expect(feed.getByRole('list', { name: `Latest items of Blog ${tag}` })).toContainText(
      `Spring is here ${tag}`,
    );
    await feed.getByRole('button', { name: 'Check now' }).click();
    await expect(feed.getByRole('status').filter({ hasText: 'Not changed since the last check.' })).toBeVisible();
    expect(requests).toEqual([null, `"${tag}"`]);

    await page.goto('/drafts');
    await expect(page.getByText(`Spring is here ${tag} https://blog.example.com/spring-${tag}`)).toBeVisible();
    const rows = await e2eSql()<{ status: string; key: string }[]>`
      select d.status, p.idempotency_key as key from posts p join deliveries d on d.post_id = p.id
      where p.text = ${`Spring is here ${tag} https://blog.example.com/spring-${tag}`}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'draft', key: expect.stringMatching(/^feed:/) });

    // An item refused for good keeps its reason; "Retry" tries it again at once (here it now goes through).
    await e2eSql()`
      insert into feed_items (feed_id, workspace_id, guid_key, title, link, error)
      select id, workspace_id, ${`retry-${tag}`}, ${`Refused once ${tag}`}, 'https://blog.example.com/once', 'Refused for a reason since fixed'
      from feeds where name = ${`Blog ${tag}`}`;
    await page.goto('/feeds');
    const items = page
      .getByRole('region', { name: `Blog ${tag}` })
      .getByRole('list', { name: `Latest items of Blog ${tag}` });
    await expect(items).toContainText('not posted: Refused for a reason since fixed');
    await items.getByRole('button', { name: `Retry: Refused once ${tag}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Tried again: see the item.' })).toBeVisible();
    await expect(items.getByRole('listitem').filter({ hasText: `Refused once ${tag}` })).toContainText('its post');
    const retried = await e2eSql()<{ status: string }[]>`
      select d.status from posts p join deliveries d on d.post_id = p.id
      where p.text = ${`Refused once ${tag} https://blog.example.com/once`}`;
    expect(retried.map((r) => r.status)).toEqual(['draft']);
  } finally {
    server.close();
  }
});
