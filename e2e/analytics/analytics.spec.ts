import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// The analytics page on the seeded demo (six weeks of sent posts with their readings: scripts/seed/seed-analytics.ts):
// populated totals, filters that change the numbers, the chart's data table equal to the database, and the client
// report's PDF holding the totals (its text extracted here). The server's metrics job may land a reading while the test
// reads, so each comparison with the database is retried on a fresh page until both agree.

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const today = new Date();
const FROM = iso(new Date(today.getTime() - 29 * DAY));
const TO = iso(today);
const range = { from: `${FROM}T00:00:00Z`, to: `${iso(new Date(today.getTime() + DAY))}T00:00:00Z` };
const number = (text: string) => (text.trim() === '—' ? null : Number(text.replace(/[^\d.-]/g, '')));
const format = (n: number) => new Intl.NumberFormat('en-GB').format(n);

async function demo() {
  const [row] = await e2eSql()<{ id: string }[]>`select id from workspaces where slug = 'demo'`;
  return row!.id;
}

/** The period's totals as the database holds them (the demo workspace's zone is UTC). */
async function totalsInDb(workspaceId: string, accountId?: string) {
  const [row] = await e2eSql()<{ posts: number; engagement: number | null }[]>`
    select count(*)::int as posts, sum(engagement)::float8 as engagement from post_metrics
    where workspace_id = ${workspaceId} and published_at >= ${range.from}::timestamptz and published_at < ${range.to}::timestamptz
      and (${accountId ?? null}::uuid is null or account_id = ${accountId ?? null}::uuid)`;
  return row!;
}

const total = (page: Page, label: RegExp) => page.getByRole('group', { name: label }).locator('dd').first();

test('the analytics page on the seeded demo: populated, filtered, its chart’s data table equal to the database, and the PDF', async ({
  page,
}) => {
  test.slow();
  const workspaceId = await demo();
  await signIn(page, 'admin@demo.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByLabel('From')).toHaveValue(FROM);
  await expect(page.getByLabel('To (included)')).toHaveValue(TO);

  // Populated, and the totals are the database's.
  await expect(async () => {
    await page.reload();
    const db = await totalsInDb(workspaceId);
    expect(db.posts).toBeGreaterThan(20);
    expect(number(await total(page, /^Posts published/).innerText())).toBe(db.posts);
    expect(number(await total(page, /^Engagement/).innerText())).toBe(db.engagement);
  }).toPass({ timeout: 30_000 });
  await expect(total(page, /^Followers/)).not.toHaveText('—');
  await expect(page.getByRole('table', { name: 'Posts ranked by engagement rate' }).getByRole('row')).toHaveCount(11);
  await expect(
    page.getByText(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d\d:00–\d\d:00 \(UTC\)/),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Figures by network' }).getByRole('row')).toHaveCount(6);

  // The chart's data table: every day of the period, its posts and engagement as the database adds them up.
  await page.getByText('Data table: engagement and followers by day').click();
  const table = page.getByRole('table', { name: 'Engagement and followers by day' });
  await expect(table.getByRole('row')).toHaveCount(31);
  await expect(async () => {
    const rows = await table.getByRole('row').allInnerTexts();
    const shown = new Map(
      rows.slice(1).map((r) => {
        const [day, posts, engagement, , followers] = r.split('\t');
        return [day!.trim(), { posts: number(posts!), engagement: number(engagement!), followers: number(followers!) }];
      }),
    );
    const perDay = await e2eSql()<{ day: string; posts: number; engagement: number | null }[]>`
      select to_char(published_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as posts,
        sum(engagement)::float8 as engagement
      from post_metrics where workspace_id = ${workspaceId}
        and published_at >= ${range.from}::timestamptz and published_at < ${range.to}::timestamptz
      group by 1`;
    expect(perDay.length).toBeGreaterThan(20);
    for (const d of perDay) expect(shown.get(d.day), d.day).toMatchObject({ posts: d.posts, engagement: d.engagement });
    const [followers] = await e2eSql()<{ n: number }[]>`
      select sum(f.followers)::float8 as n from social_accounts a
      cross join lateral (select followers from follower_snapshots s where s.account_id = a.id and s.day <= ${FROM}
        order by s.day desc limit 1) f
      where a.workspace_id = ${workspaceId}`;
    expect(shown.get(FROM)!.followers).toBe(followers!.n);
  }).toPass({ timeout: 30_000 });

  // Filters change the numbers: one account only.
  const [mastodon] = await e2eSql()<{ id: string }[]>`
    select id from social_accounts where workspace_id = ${workspaceId} and provider = 'mastodon'`;
  await page.getByRole('checkbox', { name: /@demo@sandbox\.social/ }).check();
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`account=${mastodon!.id}`));
  await expect(page.getByRole('checkbox', { name: /@demo@sandbox\.social/ })).toBeChecked();
  await expect(async () => {
    await page.reload();
    const all = await totalsInDb(workspaceId);
    const one = await totalsInDb(workspaceId, mastodon!.id);
    expect(one.posts).toBeLessThan(all.posts);
    expect(number(await total(page, /^Posts published/).innerText())).toBe(one.posts);
    expect(number(await total(page, /^Engagement/).innerText())).toBe(one.engagement);
  }).toPass({ timeout: 30_000 });
  // Mastodon counts no views: absent, never zero.
  await expect(total(page, /^Views/)).toHaveText('—');
  await expect(page.getByRole('table', { name: 'Figures by network' }).getByRole('row')).toHaveCount(2);

  // The client report's PDF: the workspace's name and the totals, as the database holds them.
  await expect(async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Client report (PDF)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^demo-agency-report-${FROM}-to-${TO}\\.pdf$`));
    const bytes = Buffer.concat(await (await file.createReadStream()).toArray());
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    const [db] = await e2eSql()<{ deliveries: number; engagement: number }[]>`
      select count(*)::int as deliveries, sum(m.engagement)::float8 as engagement
      from deliveries d join posts p on p.id = d.post_id left join post_metrics m on m.delivery_id = d.id
      where d.workspace_id = ${workspaceId} and d.status <> 'draft'
        and p.scheduled_at >= ${range.from}::timestamptz and p.scheduled_at < ${range.to}::timestamptz`;
    expect(flat).toContain('Demo Agency');
    expect(flat).toContain(`Client report: posts scheduled from ${FROM} to ${TO}`);
    expect(flat).toContain(`Deliveries ${format(db!.deliveries)}`);
    expect(flat).toContain(`Total engagement ${format(db!.engagement)}`);
  }).toPass({ timeout: 45_000 });
});

test('Settings → Client report: the monthly recipient and the logo, refused when invalid', async ({ page }) => {
  const workspaceId = await demo();
  await signIn(page, 'admin@demo.test');
  await page.goto('/settings');
  const recipient = page.getByLabel('Send the monthly report to');
  await recipient.fill('not an address');
  await page.getByRole('button', { name: 'Save recipient' }).click();
  await expect(page.getByText('Enter an email address, or leave it empty')).toBeVisible();
  await expect(recipient).toHaveAttribute('aria-invalid', 'true');
  expect(await e2eSql()`select 1 from client_report_settings where workspace_id = ${workspaceId}`).toHaveLength(0);

  await recipient.fill('Client@Example.test');
  await page.getByRole('button', { name: 'Save recipient' }).click();
  await expect(page.getByText('The monthly report goes to client@example.test.')).toBeVisible();
  const png = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#4338ca' } })
    .png()
    .toBuffer();
  await page.getByLabel('Logo on the report').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Save logo' }).click();
  await expect(page.getByText('Logo saved: it heads the client report.')).toBeVisible();
  const [row] = await e2eSql()<{ to_address: string; logo_type: string; bytes: number }[]>`
    select to_address, logo_type, octet_length(logo) as bytes from client_report_settings where workspace_id = ${workspaceId}`;
  expect(row).toMatchObject({ to_address: 'client@example.test', logo_type: 'image/png' });
  expect(row!.bytes).toBeGreaterThan(0);
  // Cleared again for the other tests (the seeded demo is shared).
  await e2eSql()`delete from client_report_settings where workspace_id = ${workspaceId}`;
});
