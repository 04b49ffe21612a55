// The screenshots of README.md and the guides in docs/: the calendar, the composer with a thread, a post's timeline
// while it is being verified, the agency features (approvals and the client's link, the publication report,
// webhooks, the request form, the notifications Outbox, CSV import, analytics, the inbox) and the content tools (docs/content.md),
// taken from a production build on a fresh, seeded database (as the e2e suite starts it), written to
// docs/screenshots/*.png. Needs `npx next build` first. Against a running server instead: SCREENSHOTS_URL=... (signed
// in with the demo password, DEMO_PASSWORD or semel-demo). `-- --only content` takes the content tools' screenshots alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import postgres from 'postgres';
import sharp from 'sharp';
import { startWebhookReceiver } from '../testing/webhook-receiver';

const OUT = path.resolve('docs/screenshots');
const PORT = Number(process.env.SCREENSHOTS_PORT || 3290);
const DATA_DIR = '.data/screenshots';
const VIEWPORT = { width: 1280, height: 800 };

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const url = `http://127.0.0.1:${PORT}`;
  const child = spawn(
    'npx',
    ['tsx', 'scripts/with-db.mts', '--fresh', '--seed', '--', 'npx', 'next', 'start', '-p', `${PORT}`],
    {
      detached: true, // its own process group, stopped as a whole below
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SEMEL_DATA_DIR: DATA_DIR,
        MEDIA_DIR: `${DATA_DIR}/media`,
        NEXTAUTH_URL: url,
        NEXTAUTH_SECRET: 'screenshots-only-secret-0123456789abcdef',
        APP_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
        CRON_SECRET: 'screenshots-cron-secret-0123',
        DEMO_PASSWORD: 'semel-demo',
        SANDBOX_ENABLED: 'true',
        // The webhooks screenshot sends a test event to a receiver on this machine.
        OUTBOUND_ALLOWED_HOSTS: 'localhost',
        NEXT_TELEMETRY_DISABLED: '1',
      },
    },
  );
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start within two minutes');
}

async function signIn(page: Page, email = 'manager@demo.test') {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(process.env.DEMO_PASSWORD || 'semel-demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/queue$/);
}

/** A palette PNG at full compression: a screenshot of a UI keeps its look at a fraction of the size. */
async function save(page: Page, name: string) {
  const raw = await page.screenshot({ fullPage: false });
  const file = path.join(OUT, name);
  writeFileSync(file, await sharp(raw).png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 }).toBuffer());
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

/** As an admin of the demo workspace: approvals and the client's link, the report, webhooks, a CSV import preview. */
async function agencyScreenshots(sql: postgres.Sql) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, 'admin@demo.test');

  // Approvals: a post waiting for the client, the Approvals list, then the client's link in a context without a session.
  await sql`update workspaces set approval_required = true where slug = 'demo'`;
  try {
    await page.goto('/compose');
    await page.getByRole('checkbox', { name: /Demo Support/ }).check();
    await page
      .getByLabel('Text')
      .fill('Black Friday recap: thank you for a record week. Our winter hours start Monday ❄️');
    const later = new Date(Date.now() + 2 * 86_400_000);
    await page.getByLabel('Schedule').check();
    await page.getByLabel(/Date and time/).fill(`${later.toISOString().slice(0, 10)}T10:30`);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('link', { name: 'View the post' }).click();
    await page.waitForURL(/\/posts\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Create client link' }).click();
    const link = await page.getByLabel('Client link').inputValue();
    await page.goto('/approvals');
    await page.getByText('Black Friday recap').first().waitFor();
    await save(page, 'approvals.png');
    const client = await browser.newContext({ viewport: VIEWPORT, timezoneId: 'Europe/Paris', locale: 'en-GB' });
    const clientPage = await client.newPage();
    await clientPage.goto(link);
    await clientPage.getByRole('heading', { name: 'Posts waiting for your approval' }).waitFor();
    await save(clientPage, 'approve-link.png');
    await client.close();
  } finally {
    await sql`update workspaces set approval_required = false where slug = 'demo'`;
  }

  // Webhooks: an endpoint on a receiver here, with a test event in its delivery log.
  const receiver = await startWebhookReceiver();
  try {
    await page.goto('/settings/webhooks');
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/semel`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId('new-secret').waitFor();
    await page.reload();
    await page
      .getByRole('button', { name: /^Send test event/ })
      .first()
      .click();
    await page.getByText('Delivered').first().waitFor();
    await page.getByRole('listitem', { name: /^Endpoint / }).scrollIntoViewIfNeeded();
    await save(page, 'webhooks.png');
  } finally {
    await receiver.close();
  }

  // The client request form: a link from Settings, opened without a session, filled in.
  await page.goto('/settings');
  const requests = page.getByRole('region', { name: 'Request link' });
  await requests.getByLabel('Link name').fill('Café Lumière');
  await requests.getByRole('button', { name: 'Create request link' }).click();
  const requestUrl = await requests.getByLabel('Request link', { exact: true }).inputValue();
  const requester = await browser.newContext({ viewport: VIEWPORT, timezoneId: 'Europe/Paris', locale: 'en-GB' });
  const form = await requester.newPage();
  await form.goto(requestUrl);
  await form.getByLabel('Your name').fill('Camille at Café Lumière');
  await form
    .getByLabel('Post text')
    .fill('Our Christmas market stall opens Saturday: mulled wine, crêpes and a raffle.');
  await form.getByLabel('Note for the team (optional)').fill('Could you add the photo from last year?');
  await save(form, 'request-form.png');
  await requester.close();

  // Notifications: without SMTP_URL the emails are stored, and the Outbox shows them (the seed's review item sent one).
  const emails = page.getByRole('list', { name: 'Emails' }).getByRole('listitem');
  for (let i = 0; i < 60; i++) {
    await page.goto('/outbox'); // the notifications job sends every 5 s
    if ((await emails.count()) > 0) break;
    await page.waitForTimeout(1000);
  }
  await emails.first().locator('summary').click();
  await save(page, 'outbox.png');

  // CSV import: the preview of a small file, one row with an unknown account.
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const csv = [
    'text,accounts,scheduled_at,time_zone',
    `"Winter menu is here: three new soups, all week",@demo_brand;@demo_support,${inDays(9)}T09:00,Europe/Paris`,
    `Live music every Friday in December,@demo_brand,${inDays(10)}T18:30,Europe/Paris`,
    `Gift cards are back: order online or at the counter,@demo_support,${inDays(11)}T12:00,Europe/Paris`,
    `A row for an account we do not have,@nobody_here,${inDays(11)}T12:00,Europe/Paris`,
  ].join('\r\n');
  await page.goto('/import');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'december.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('table', { name: 'Import rows' }).waitFor();
  await save(page, 'import.png');

  // The report once the seeded "being verified" post is settled by the reconciler (about a minute after the seed),
  // so it shows each path: sent directly, confirmed by reconciliation, decided by an admin, missed.
  const reconciled = page.locator('dl[aria-label="Totals"] div').filter({ hasText: 'Confirmed by reconciliation' });
  for (let i = 0; i < 120; i++) {
    await page.goto('/reports');
    if ((await reconciled.locator('dd').textContent()) !== '0') break;
    await page.waitForTimeout(1000);
  }
  await save(page, 'report.png');

  // The inbox: what the demo accounts' people said (the inbox job reads it at start), one reply open under our post.
  await page.goto('/inbox?kind=reply');
  const item = page.getByRole('list', { name: 'Items' }).getByRole('button').first();
  await item.waitFor({ timeout: 90_000 });
  await item.click();
  await page.getByRole('form', { name: 'Reply' }).waitFor();
  await page.getByLabel(/^Your answer to/).fill('Thanks! It ships tomorrow: the tracking link is on its way by email.');
  await save(page, 'inbox.png');
  // The analytics page on the seeded six weeks of readings: totals, the chart, engagement by network.
  await page.goto('/analytics');
  await page.getByRole('table', { name: 'Figures by network' }).waitFor();
  await page.locator('.recharts-line').first().waitFor();
  await page.getByRole('group', { name: /^Posts published/ }).scrollIntoViewIfNeeded();
  await save(page, 'analytics.png');
  await context.close();
}

/** The content tools (docs/content.md): composer, links and clicks, library, evergreen, feeds, bulk actions. */
async function contentScreenshots(sql: postgres.Sql) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, 'admin@demo.test');
  const ws = sql`(select id from workspaces where slug = 'demo')`;
  const [brand] = await sql<
    { id: string }[]
  >`select id from social_accounts where handle = '@demo_brand' and workspace_id = ${ws}`;
  const [mastodon] = await sql<{ id: string }[]>`
    select id from social_accounts where handle = '@demo@sandbox.social' and workspace_id = ${ws}`;
  await sql`insert into snippets (workspace_id, name, kind, text) values
    (${ws}, 'winter', 'hashtags', '#winter #cafe #hotchocolate'),
    (${ws}, 'signature', 'signature', '— Camille & the Lumière team'),
    (${ws}, 'allergens', 'disclaimer', 'Allergen information at the counter.')
    on conflict do nothing`;
  await sql`insert into post_templates (workspace_id, name, text, first_comment, account_ids, time_of_day)
    values (${ws}, 'New on the menu', 'New on the menu: {{dish}}, {{price}} — all week.', 'Book a table: https://cafe.example.com/book',
      ${[brand!.id, mastodon!.id]}::uuid[], '11:30')
    on conflict do nothing`;
  await sql`insert into link_settings (workspace_id, utm, shorten, shortener) values (${ws}, true, true, 'semel')
    on conflict (workspace_id) do update set utm = true, shorten = true, shortener = 'semel'`;
  await sql`insert into utm_presets (workspace_id, name, medium, campaign, is_default)
    values (${ws}, 'Winter menu', 'social', 'winter-menu', true) on conflict do nothing`;

  // The composer: started from a template, a snippet being inserted with /, a first comment.
  await page.goto('/compose');
  await page.getByLabel('Template', { exact: true }).selectOption({ label: 'New on the menu' });
  await page.getByLabel('{{dish}}').fill('pumpkin soup');
  await page.getByLabel('{{price}}').fill('€7');
  await page.getByRole('button', { name: 'Apply template' }).click();
  const text = page.getByLabel('Text', { exact: true });
  await text.click();
  await text.press('End');
  await text.pressSequentially(' /win');
  await page.getByRole('listbox', { name: 'Snippets' }).waitFor();
  await text.press('Enter');
  await text.pressSequentially(' /sig');
  await page.getByRole('listbox', { name: 'Snippets' }).waitFor();
  await page.getByLabel('First comment (optional)').scrollIntoViewIfNeeded();
  await save(page, 'compose-content.png');
  await text.press('Escape');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
  await page.waitForURL(/\/posts\/[0-9a-f-]{36}$/);

  // Clicks: people through the post's short links (a crawler's visit is not counted).
  const links = await sql<{ code: string; utm_source: string }[]>`
    select code, utm_source from short_links where workspace_id = ${ws} order by utm_source`;
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  for (const [i, link] of links.entries())
    for (let n = 0; n < 3 + i * 4; n++)
      await fetch(`${baseURL}/l/${link.code}`, { redirect: 'manual', headers: { 'user-agent': chrome } });
  await fetch(`${baseURL}/l/${links[0]!.code}`, { redirect: 'manual', headers: { 'user-agent': 'Twitterbot/1.0' } });
  await page.goto('/settings/links');
  await page.getByRole('table').waitFor();
  await page.getByRole('heading', { name: 'UTM presets' }).scrollIntoViewIfNeeded();
  await save(page, 'links.png');

  // The Library: the template opened with Edit, a photo of the dish attached as the composer attaches one.
  await page.goto('/library');
  await page.getByRole('link', { name: 'Edit New on the menu' }).click();
  const form = page.locator('#edit-template');
  const photo = await sharp({ create: { width: 480, height: 360, channels: 3, background: { r: 214, g: 122, b: 46 } } })
    .jpeg()
    .toBuffer();
  await form.getByLabel('Add images').setInputFiles({ name: 'soup.jpeg', mimeType: 'image/jpeg', buffer: photo });
  await form.getByLabel(/Alt text for image 1/).fill('A bowl of pumpkin soup on a wooden table');
  await form.getByRole('button', { name: 'Upload image 1' }).click();
  await form.getByText('Image 1 uploaded').waitFor();
  await form.getByRole('button', { name: 'Save template' }).click();
  await form.getByRole('status').filter({ hasText: 'saved' }).waitFor();
  await form.getByRole('heading').scrollIntoViewIfNeeded();
  await save(page, 'library.png');

  // Evergreen: a queue of tips into the brand's slots.
  await page.goto('/evergreen');
  await page.getByLabel('Name').fill('Barista tips');
  await page.getByRole('checkbox', { name: '@demo_brand', exact: true }).check();
  await page.getByRole('button', { name: 'Add queue' }).click();
  const queue = page.getByRole('region', { name: /^Barista tips/ });
  for (const [tip, variant] of [
    ['Warm the cup first: your latte stays hot twice as long.', 'Tip: a warm cup keeps a latte hot for twice as long.'],
    ['Oat milk foams best at 60 °C. Ask us for a demo!', ''],
    ['Our beans are roasted every Tuesday, three streets away.', ''],
  ]) {
    await queue.getByLabel('New post').fill(tip!);
    if (variant) await queue.getByLabel(/^Variants/).fill(variant);
    await queue.getByRole('button', { name: 'Add to Barista tips' }).click();
    await queue.getByText(tip!).waitFor();
  }
  await save(page, 'evergreen.png');

  // Feeds: the café's blog, served here, read once into drafts.
  const blog = (await import('node:http')).createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml', etag: '"blog-1"' }).end(`<?xml version="1.0"?>
      <rss version="2.0"><channel><title>Café Lumière blog</title><link>https://cafe.example.com</link><description>b</description>
      <item><title>Our winter menu is here</title><link>https://cafe.example.com/blog/winter-menu</link><guid>cafe-12</guid><description>Soups.</description></item>
      <item><title>Meet our new roaster</title><link>https://cafe.example.com/blog/roaster</link><guid>cafe-11</guid><description>Beans.</description></item>
      </channel></rss>`);
  });
  await new Promise<void>((resolve) => blog.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto('/feeds');
    await page.getByLabel('Name').fill('Café blog');
    await page
      .getByLabel('Feed URL (RSS, Atom or JSON Feed)')
      .fill(`http://localhost:${(blog.address() as { port: number }).port}/feed.xml`);
    await page.getByRole('checkbox', { name: '@demo_brand', exact: true }).check();
    await page.getByRole('button', { name: 'Add feed' }).click();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText('2 new items.').waitFor();
    await save(page, 'feeds.png');
  } finally {
    blog.close();
  }

  // Bulk actions: the demo week selected in the calendar, moved a day on.
  await page.goto('/calendar?view=week');
  await page.getByRole('button', { name: 'Select posts' }).click();
  const boxes = page.getByRole('checkbox', { name: /^Select / });
  await boxes.first().waitFor();
  for (let i = 0; i < Math.min(5, await boxes.count()); i++) await boxes.nth(i).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await bar.getByLabel('Move by (negative: earlier)').fill('1');
  await bar.getByRole('button', { name: /^Apply to/ }).click();
  await bar.getByRole('list', { name: 'Bulk results' }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await save(page, 'bulk.png');
  await context.close();
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const server = process.env.SCREENSHOTS_URL ? null : await startServer();
const baseURL = process.env.SCREENSHOTS_URL || server!.url;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || (process.platform === 'linux' ? '/usr/bin/chromium' : undefined),
  args: ['--no-sandbox'],
});
try {
  mkdirSync(OUT, { recursive: true });
  const dataDir = server ? DATA_DIR : process.env.SEMEL_DATA_DIR || '.data';
  const sql = postgres(readFileSync(path.join(dataDir, 'database-url'), 'utf8').trim(), { max: 1 });
  if (only !== 'content') await coreScreenshots(sql);
  await contentScreenshots(sql);
  await sql.end();
} finally {
  await browser.close();
  if (server?.child.pid) process.kill(-server.child.pid, 'SIGTERM');
}

/** The README's and the publishing guide's: calendar, thread composer, a timeline being verified, the agency features. */
async function coreScreenshots(sql: postgres.Sql) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORT, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page);

  await page.goto('/calendar');
  await page.getByTestId('calendar-chip').first().waitFor();
  await save(page, 'calendar.png');

  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Brand/ }).check();
  await page.getByRole('checkbox', { name: /Demo on Mastodon/ }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  await page
    .getByLabel('Part 1', { exact: true })
    .fill('Launch week, day 3: the scheduling guide is live. A few highlights 🧵');
  await page
    .getByLabel('Part 2', { exact: true })
    .fill('1/ Every post gets its key when you open the composer: a double click never makes two.');
  await page.getByRole('button', { name: 'Add part' }).click();
  await page
    .getByLabel('Part 3', { exact: true })
    .fill('2/ A timeout is never resent blindly: we read the account first.');
  await page.getByLabel('Part 3', { exact: true }).blur();
  await save(page, 'compose-thread.png');

  // The seeded post whose call timed out: "Ambiguous — being verified" on its timeline, then (once the reconciler
  // has read the account, about a minute after the seed) the check that found it.
  const [verifying] = await sql<{ id: string }[]>`
    select p.id from posts p join workspaces w on w.id = p.workspace_id
    where w.slug = 'demo' and p.idempotency_key like 'seed:%:verifying' order by p.created_at desc limit 1`;
  await page.goto(`/posts/${verifying!.id}`);
  await page.getByText('Ambiguous — being verified').first().waitFor();
  await save(page, 'post-timeline.png');
  await context.close();
  await agencyScreenshots(sql);
}
