import { createHash, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';
import { connectThroughSandboxOAuth } from '../support/oauth';

// The ffmpeg that ships in the npm package (lib/media/video.ts uses the same).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-e2e-reel-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real 30 s vertical H.264/AAC MP4 (360×640, 30 fps) of about 10 MB: a Reel, a TikTok and a Short all take it. */
function verticalClip(): string {
  const file = path.join(dir, 'reel.mp4');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=360x640:rate=30,noise=alls=40:allf=t+u'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '30', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-b:v', '2500k', '-maxrate', '2500k', '-bufsize', '2500k', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', file],
  ]);
  return file;
}

async function connect(page: Page, label: string, network: string): Promise<string> {
  await connectThroughSandboxOAuth(page, { label, path: network }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(new RegExp(`^Connected @\\S+ on ${label}\\.$`));
  return new RegExp(`Connected (@\\S+) on ${label}\\.`).exec((await status.textContent()) ?? '')![1]!;
}

test('one 30 s video, uploaded through tus across a dropped connection, goes out once each as an Instagram Reel, a TikTok and a YouTube Short; the calendar shows it, the report says how each was settled', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'admin@demo.test');
  const instagram = await connect(page, 'Instagram', 'instagram');
  const tiktok = await connect(page, 'TikTok', 'tiktok');
  const youtube = await connect(page, 'YouTube', 'youtube');

  const file = verticalClip();
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  const marker = randomUUID();
  const text = `Behind the scenes ${marker}`;
  await page.goto('/compose');
  for (const handle of [instagram, tiktok, youtube])
    await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(text);

  // The second PATCH's connection drops: the upload asks the server for its offset and goes on from there.
  const sent: string[] = [];
  let patches = 0;
  await page.route('**/api/v1/uploads/*', async (route) => {
    const request = route.request();
    sent.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`);
    if (request.method() === 'PATCH' && ++patches === 2) return route.abort('connectionreset');
    return route.continue();
  });
  await page.getByLabel('Add a video').setInputFiles(file);
  const media = page.getByRole('list', { name: 'Images of this post' });
  await expect(media.getByText('Video 1 uploaded')).toBeVisible({ timeout: 90_000 });
  await expect(media.getByText(/MP4 · 0:30 · 360×640/)).toBeVisible();
  const chunk = String(5 * 1024 * 1024);
  expect(sent.slice(0, 4)).toEqual(['PATCH 0', `PATCH ${chunk}`, 'HEAD ', `PATCH ${chunk}`]);
  await page.unroute('**/api/v1/uploads/*');

  // What each network asks for: TikTok's privacy level (from the creator's options), YouTube as a Short.
  const privacy = page
    .getByRole('group', { name: `TikTok settings for ${tiktok}` })
    .getByRole('group', { name: 'Who can see this video (required)' });
  await privacy.getByRole('radio', { name: 'Followers', exact: true }).check();
  await page
    .getByRole('group', { name: `Post as on ${youtube} (YouTube)` })
    .getByRole('radio', { name: /^Short/ })
    .check();
  await page
    .getByRole('group', { name: `YouTube settings for ${youtube}` })
    .getByLabel(/^Title/)
    .fill(`Our Short ${marker}`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();

  // Each delivery sent, once: one attempt's worth of copies on each platform's own records.
  await expect
    .poll(
      async () =>
        (
          await e2eSql()<{ provider: string; status: string }[]>`
            select a.provider::text, d.status from deliveries d join posts p on p.id = d.post_id
            join social_accounts a on a.id = d.account_id where p.text = ${text} order by a.provider`
        ).map((d) => `${d.provider}:${d.status}`),
      { timeout: 90_000, intervals: [1_000] },
    )
    .toEqual(['instagram:sent', 'tiktok:sent', 'youtube:sent']);
  const [stored] = await e2eSql()<{ n: number }[]>`select count(*)::int as n from media where sha256 = ${sha256}`;
  expect(stored!.n).toBe(1);
  const reels = await e2eSql()<{ media_type: string }[]>`
    select c.media_type from sandbox.threads_containers c join sandbox.posts p on p.id = c.post_id where p.text = ${text}`;
  expect(reels).toEqual([{ media_type: 'REELS' }]);
  const tiktoks = await e2eSql()<{ privacy_level: string }[]>`
    select t.privacy_level from sandbox.tiktok_publishes t join sandbox.posts p on p.id = t.post_id
    where p.text = ${text}`;
  expect(tiktoks).toEqual([{ privacy_level: 'FOLLOWER_OF_CREATOR' }]);
  const shorts = await e2eSql()<{ title: string }[]>`
    select u.title from sandbox.youtube_uploads u where u.description = ${text} and u.post_id is not null`;
  expect(shorts).toEqual([{ title: `Our Short ${marker}` }]);

  // The calendar shows the post; the report has one row per network, each saying how we know.
  // The week view shows every post (a crowded day of the month view shows "+N more").
  await page.goto('/calendar?view=week');
  await expect(
    page.getByTestId('calendar-chip').filter({ hasText: `Behind the scenes ${marker.slice(0, 8)}` }),
  ).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  const rows = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').filter({ hasText: marker });
  await expect(rows).toHaveCount(3);
  for (const [handle, network] of [
    [instagram, 'Instagram'],
    [tiktok, 'TikTok'],
    [youtube, 'YouTube'],
  ] as const) {
    const row = rows.filter({ hasText: handle });
    await expect(row).toContainText(network);
    // Sent directly, or (TikTok and YouTube often) confirmed by reconciliation from the platform's own evidence.
    await expect(row).toContainText(/Sent directly|Confirmed by reconciliation/);
  }
});
