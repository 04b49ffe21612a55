import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { addDays, defaultAnchor, viewDays } from '../../lib/calendar/grid';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// Every test seeds its own posts, most on an account of their own (filtered with ?account=), so posts other
// specs leave in the demo workspace never crowd a day. Times are asserted on what the viewer sees (the cell
// and hour a chip is in) and in the database.

const DAY_MS = 86_400_000;
// Viewer zones for the drag test, from UTC−12 to UTC+14.
const DRAG_ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Tokyo',
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  'Pacific/Honolulu',
];

/** The civil date and hour of an instant in a zone (what the calendar's cells are keyed by). */
function zoned(instant: Date, timeZone: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, hour: p.hour!, time: `${p.hour}:${p.minute}` };
}

/** A whole minute, UTC, `days` ahead at hh:mm. */
const utcAt = (days: number, hh: number, mm = 0) => {
  const d = new Date(Date.now() + days * DAY_MS);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hh, mm));
};

/** An account of the demo workspace for one test only (not connected to any network: its posts stay in the future). */
async function seedAccount(): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const [row] = await e2eSql()<{ id: string }[]>`
    insert into social_accounts (workspace_id, provider, sandbox, handle, display_name, platform_user_id, base_url,
      credentials_encrypted, token_last4)
    values ((select id from workspaces where slug = 'demo'), 'mastodon', false, ${`@cal_${tag}`}, ${`Calendar ${tag}`},
      ${tag}, 'https://calendar.example.test', 'v1.x.x.x', 'abcd')
    returning id`;
  return row!.id;
}

async function seedPost(accountId: string, text: string, at: Date) {
  const [post] = await e2eSql()<{ id: string }[]>`
    insert into posts (workspace_id, text, scheduled_at, source, idempotency_key)
    values ((select id from workspaces where slug = 'demo'), ${text}, ${at}, 'api', ${randomUUID()}) returning id`;
  const [delivery] = await e2eSql()<{ id: string }[]>`
    insert into deliveries (workspace_id, post_id, account_id, due_at)
    values ((select id from workspaces where slug = 'demo'), ${post!.id}, ${accountId}, ${at}) returning id`;
  return { postId: post!.id, deliveryId: delivery!.id };
}

async function scheduledAt(postId: string): Promise<Date> {
  const [row] = await e2eSql()<{ scheduled_at: Date }[]>`select scheduled_at from posts where id = ${postId}`;
  return row!.scheduled_at;
}

async function signedInPage(browser: Browser, timeZone: string): Promise<Page> {
  const context = await browser.newContext({ timezoneId: timeZone, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, 'manager@demo.test');
  return page;
}

const chip = (page: Page, text: string) => page.getByTestId('calendar-chip').filter({ hasText: text });
const dayCell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

/** A pointer drag as a person does it: press on the chip's time, move past the threshold, move onto the cell, release. */
async function drag(page: Page, from: Locator, to: Locator) {
  await from.scrollIntoViewIfNeeded();
  await to.scrollIntoViewIfNeeded();
  const source = (await from.locator('time').boundingBox())!;
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2 + 12, { steps: 4 });
  // Measured once the drag has begun: a row whose only chip is being dragged can shrink, moving the cells below.
  const target = (await to.boundingBox())!;
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

test.describe('calendar', () => {
  for (const timeZone of ['Asia/Tokyo', 'America/Los_Angeles']) {
    test(`month and week views show seeded posts at their times in ${timeZone}`, async ({ browser }) => {
      const accountId = await seedAccount();
      // 23:30 UTC: the next day in Tokyo, the same day in Los Angeles.
      const at = utcAt(3, 23, 30);
      const text = `Zoned ${randomUUID()}`;
      await seedPost(accountId, text, at);
      const local = zoned(at, timeZone);
      const page = await signedInPage(browser, timeZone);

      await page.goto(`/calendar?view=month&date=${local.date}&account=${accountId}`);
      await expect(page.getByTestId('calendar-zones')).toContainText(`your time zone, ${timeZone}`);
      await expect(page.getByTestId('calendar-zones')).toContainText('workspace time zone: UTC');
      const inMonth = dayCell(page, local.date).getByTestId('calendar-chip').filter({ hasText: text });
      await expect(inMonth).toBeVisible();
      await expect(inMonth.locator('time')).toHaveAttribute('datetime', at.toISOString());
      await expect(inMonth.locator('time')).toContainText(`${Number(local.hour) % 12 || 12}:30`);
      await expect(inMonth).toContainText('Scheduled');
      await expect(inMonth).toContainText('@cal_');

      // The status filter is part of the URL (a filtered view can be linked): none of these posts is sent.
      await page.getByLabel('Status').selectOption('sent');
      await expect(page).toHaveURL(/status=sent/);
      await expect(chip(page, text)).toHaveCount(0);
      await page.getByLabel('Status').selectOption('');
      await expect(page).not.toHaveURL(/status=/);

      await page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Week' }).click();
      await expect(page).toHaveURL(/view=week/);
      const slot = page.locator(`td[data-slot="${local.date}T${local.hour}"]`);
      await expect(slot.getByTestId('calendar-chip').filter({ hasText: text })).toBeVisible();
      await page.context().close();
    });
  }

  for (const timeZone of ['Asia/Tokyo', 'America/Los_Angeles']) {
    test(`the calendar opens on the demo week: the seeded posts at their times in month and week views, in ${timeZone}`, async ({
      browser,
    }) => {
      test.setTimeout(240_000); // three weeks of chips, each checked in the page and against the database
      // The seed's posts (scripts/seed/seed-posts.ts): this week and the next, in every state.
      const seeded = await e2eSql()<{ text: string; scheduled_at: Date; key: string; status: string }[]>`
        select p.text, p.scheduled_at, p.idempotency_key as key,
          case when count(distinct d.status) = 1 then min(d.status::text) else 'partial' end as status
        from posts p join workspaces w on w.id = p.workspace_id join deliveries d on d.post_id = p.id
        where w.slug = 'demo' and p.idempotency_key like 'seed:%' group by p.id`;
      expect(seeded.length).toBeGreaterThanOrEqual(12);
      const page = await signedInPage(browser, timeZone);
      const today = zoned(new Date(), 'UTC').date; // the workspace's zone

      // Without a date: the month view that holds this week and the next (defaultAnchor), the seed's posts in it.
      await page.goto('/calendar');
      const shown = await page
        .locator('td[data-date]')
        .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-date')!));
      expect(shown).toEqual(viewDays('month', defaultAnchor('month', today)));
      const inMonth = seeded.filter((p) => shown.includes(zoned(p.scheduled_at, timeZone).date));
      expect(inMonth.filter((p) => p.scheduled_at.getTime() > Date.now()).length).toBeGreaterThanOrEqual(5);
      for (const post of inMonth) {
        // A crowded day shows its first chips and "+N more" (the week view below shows every one).
        const cell = dayCell(page, zoned(post.scheduled_at, timeZone).date);
        const found = cell.getByTestId('calendar-chip').filter({ hasText: post.text.slice(0, 40) });
        await expect(found.or(cell.getByRole('link', { name: /more on/ })).first()).toBeVisible();
      }

      // Week by week (last, this and next): every seeded post in its hour's row, with its time and status.
      const states = new Set<string>();
      for (const date of [addDays(today, -7), today, addDays(today, 7)]) {
        await page.goto(`/calendar?view=week&date=${date}`);
        const week = await page
          .locator('td[data-slot]')
          .evaluateAll((cells) => [...new Set(cells.map((c) => c.getAttribute('data-slot')!.slice(0, 10)))]);
        expect(week).toHaveLength(7);
        for (const post of seeded.filter((p) => week.includes(zoned(p.scheduled_at, timeZone).date))) {
          const local = zoned(post.scheduled_at, timeZone);
          const found = page
            .locator(`td[data-slot="${local.date}T${local.hour}"]`)
            .getByTestId('calendar-chip')
            .filter({ hasText: post.text.slice(0, 40) });
          await expect(found).toHaveCount(1);
          await expect(found.locator('time')).toHaveAttribute('datetime', post.scheduled_at.toISOString());
          const status = (await found.getAttribute('data-status'))!;
          // The post being verified may settle (as sent) while the page loads; every other one is as stored.
          if (post.key.endsWith(':verifying')) expect(['ambiguous', 'sent']).toContain(status);
          else expect(status).toBe(post.status);
          states.add(status);
        }
      }
      for (const state of ['sent', 'scheduled', 'needs_review', 'missed', 'draft']) expect(states).toContain(state);
      await page.context().close();
    });
  }

  test('a post dragged to another day moves there, and publishes once at its new time', async ({ browser }) => {
    test.setTimeout(180_000);
    // Tomorrow, at a whole minute 20 s or more from now (the drag lands within about 10 s): dragged to today it is
    // due within 80 s. The move refuses a time already past, so the test fails rather than passes if the drag is late.
    const soon = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    const tomorrow = new Date(soon.getTime() + DAY_MS);
    // A zone where the next minutes stay on today's date and today's month view shows tomorrow too (it does not
    // when today is a Sunday ending the month). The zones span UTC−12 to UTC+14, so at any instant one fits.
    const timeZone = DRAG_ZONES.find((z) => {
      const { date, time } = zoned(soon, z);
      return time >= '00:10' && time <= '23:50' && viewDays('month', date).includes(zoned(tomorrow, z).date);
    })!;
    const [support] = await e2eSql()<{ id: string }[]>`
      select a.id from social_accounts a join workspaces w on w.id = a.workspace_id
      where w.slug = 'demo' and a.handle = '@demo_support'`;
    const text = `Dragged ${randomUUID()}`;
    const { postId, deliveryId } = await seedPost(support!.id, text, tomorrow);
    const today = zoned(soon, timeZone).date;
    const page = await signedInPage(browser, timeZone);
    await page.goto(`/calendar?view=month&date=${today}&account=${support!.id}`);
    await expect(
      dayCell(page, zoned(tomorrow, timeZone).date).getByTestId('calendar-chip').filter({ hasText: text }),
    ).toBeVisible();

    await drag(page, chip(page, text), dayCell(page, today));
    await expect(page.getByTestId('calendar-message')).toHaveText('Moved. The post goes out at its new time.');
    await expect(dayCell(page, today).getByTestId('calendar-chip').filter({ hasText: text })).toBeVisible();
    // The same wall-clock time, today: the instant moves by the day's length in the viewer's zone.
    const moved = await scheduledAt(postId);
    expect(zoned(moved, timeZone)).toEqual({ ...zoned(tomorrow, timeZone), date: today });
    const [due] = await e2eSql()<{ due_at: Date; status: string }[]>`
      select due_at, status from deliveries where id = ${deliveryId}`;
    expect(due).toEqual({ due_at: moved, status: 'scheduled' });

    // It goes out at the new time: the calendar shows it sent; the platform holds one copy, made after that time.
    await expect(chip(page, text)).toContainText('Sent', { timeout: 150_000 });
    const [copies] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
    expect(copies!.n).toBe(1);
    const started = await e2eSql()<
      { started_at: Date }[]
    >`select started_at from attempts where delivery_id = ${deliveryId}`;
    expect(started).toHaveLength(1);
    expect(started[0]!.started_at.getTime()).toBeGreaterThanOrEqual(moved.getTime());
    await page.context().close();
  });

  test('dragging a post that is already publishing is refused and the chip snaps back', async ({ browser }) => {
    const accountId = await seedAccount();
    const at = utcAt(2, 12);
    const text = `Publishing ${randomUUID()}`;
    const { postId, deliveryId } = await seedPost(accountId, text, at);
    // The publisher's claim, as the worker takes it: a live lease and the delivery publishing.
    await e2eSql()`insert into claims (delivery_id, worker_id, lease_expires_at)
      values (${deliveryId}, 'e2e-calendar', now() + interval '10 minutes')`;
    await e2eSql()`update deliveries set status = 'publishing' where id = ${deliveryId}`;
    try {
      const page = await signedInPage(browser, 'UTC');
      await page.goto(`/calendar?view=month&date=${zoned(at, 'UTC').date}&account=${accountId}`);
      const from = dayCell(page, zoned(at, 'UTC').date);
      await expect(from.getByTestId('calendar-chip').filter({ hasText: text })).toContainText('Publishing…');
      const otherDay = zoned(new Date(at.getTime() + DAY_MS), 'UTC').date;

      await drag(page, chip(page, text), dayCell(page, otherDay));
      await expect(page.getByTestId('calendar-message')).toHaveText(
        'Already publishing — not moved: it goes out at its original time, once.',
      );
      await expect(from.getByTestId('calendar-chip').filter({ hasText: text })).toBeVisible();
      await expect(dayCell(page, otherDay).getByTestId('calendar-chip').filter({ hasText: text })).toHaveCount(0);
      expect(await scheduledAt(postId)).toEqual(at);
      await page.context().close();
    } finally {
      // Let the made-up claim go, so no sweeper ever mistakes it for a crashed worker.
      await e2eSql()`update claims set released_at = now() where delivery_id = ${deliveryId}`;
      await e2eSql()`update deliveries set status = 'scheduled' where id = ${deliveryId}`;
      await e2eSql()`update deliveries set status = 'canceled' where id = ${deliveryId}`;
    }
  });

  test('keyboard: "Move…" opens a dialog whose date and time reschedule the post', async ({ browser }) => {
    const timeZone = 'Europe/Berlin';
    const accountId = await seedAccount();
    const at = utcAt(4, 8);
    const text = `Keyboard ${randomUUID()}`;
    const { postId } = await seedPost(accountId, text, at);
    const page = await signedInPage(browser, timeZone);
    const local = zoned(at, timeZone);
    await page.goto(`/calendar?view=month&date=${local.date}&account=${accountId}`);

    const button = chip(page, text).getByRole('button', { name: 'Move…' });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Move post' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Date')).toHaveValue(local.date);
    await expect(dialog.getByLabel('Time')).toHaveValue(local.time);
    const target = zoned(new Date(at.getTime() + 2 * DAY_MS), timeZone).date;
    await dialog.getByLabel('Date').fill(target);
    await dialog.getByLabel('Time').fill('16:45');
    await dialog.getByRole('button', { name: 'Move', exact: true }).focus();
    await page.keyboard.press('Enter');

    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('calendar-message')).toHaveText('Moved. The post goes out at its new time.');
    await expect(dayCell(page, target).getByTestId('calendar-chip').filter({ hasText: text })).toBeVisible();
    expect(zoned(await scheduledAt(postId), timeZone)).toMatchObject({ date: target, time: '16:45' });
    await page.context().close();
  });

  test('"New post" on an empty day opens the composer at that day, 09:00 in the viewer\'s zone', async ({
    browser,
  }) => {
    const timeZone = 'America/New_York';
    const accountId = await seedAccount(); // an empty calendar to click in
    const day = zoned(new Date(Date.now() + 5 * DAY_MS), timeZone).date;
    const page = await signedInPage(browser, timeZone);
    await page.goto(`/calendar?view=month&date=${day}&account=${accountId}`);
    await dayCell(page, day)
      .getByRole('link', { name: /^New post on / })
      .click();
    await expect(page).toHaveURL(/\/compose\?at=/);
    await expect(page.getByLabel('Schedule')).toBeChecked();
    await expect(page.getByLabel(/Date and time/)).toHaveValue(`${day}T09:00`);
    await page.context().close();
  });
});
