import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectThroughSandboxOAuth } from '../support/oauth';

// The ffmpeg that ships in the npm package (lib/media/video.ts uses the same).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-e2e-tiktok-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 4 s H.264/AAC MP4, 360×640 at 30 fps: within TikTok's limits (a short side of at least 360). */
function tiktokVideo(): string {
  const file = path.join(dir, 'tiktok.mp4');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=360x640:rate=30'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}

test('a TikTok post composed with a privacy level chosen from the creator’s options goes out once with it', async ({
  page,
}) => {
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'TikTok', path: 'tiktok' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected @\S+ on TikTok\.$/);
  const handle = /Connected (@\S+) on TikTok\./.exec((await status.textContent()) ?? '')![1]!;

  const text = `A video on TikTok ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByLabel('Add a video').setInputFiles(tiktokVideo());
  await expect(page.getByRole('list', { name: 'Images of this post' }).getByText('Video 1 uploaded')).toBeVisible({
    timeout: 60_000,
  });

  // What the creator allows, read from TikTok: its four levels, none chosen for the user; every interaction off.
  const settings = page.getByRole('group', { name: `TikTok settings for ${handle}` });
  const privacy = settings.getByRole('group', { name: 'Who can see this video (required)' });
  await expect(privacy.getByRole('radio')).toHaveCount(4);
  for (const radio of await privacy.getByRole('radio').all()) await expect(radio).not.toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'Allow comments' })).not.toBeChecked();

  // Scheduling without a privacy level is refused on the server, next to the choice, and nothing is stored.
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(privacy.getByText(/TikTok needs a privacy level chosen for the post/)).toBeVisible();
  expect(await e2eSql()`select 1 from posts where text = ${text}`).toHaveLength(0);

  // By keyboard: the arrows move through the levels (Everyone → Friends → Followers); comments allowed.
  await privacy.getByRole('radio', { name: 'Everyone', exact: true }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(privacy.getByRole('radio', { name: 'Followers', exact: true })).toBeChecked();
  await settings.getByRole('checkbox', { name: 'Allow comments' }).focus();
  await page.keyboard.press('Space');
  await expect(settings.getByRole('checkbox', { name: 'Allow comments' })).toBeChecked();

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expectDeliverySent(page, handle);

  const delivered = await e2eSql()<{ options: unknown; publishes: number; privacy_level: string; mode: string }[]>`
    select d.options,
      (select count(*)::int from sandbox.tiktok_publishes t where t.account_id = sa.id) as publishes,
      (select t.privacy_level from sandbox.tiktok_publishes t where t.account_id = sa.id limit 1) as privacy_level,
      (select t.mode from sandbox.tiktok_publishes t where t.account_id = sa.id limit 1) as mode
    from deliveries d join posts p on p.id = d.post_id join social_accounts a on a.id = d.account_id
    join sandbox.accounts sa on sa.platform = 'tiktok' and sa.platform_user_id = a.platform_user_id
    where p.text = ${text}`;
  expect(delivered).toEqual([
    {
      options: {
        privacy_level: 'FOLLOWER_OF_CREATOR',
        disable_comment: false,
        disable_duet: true,
        disable_stitch: true,
      },
      publishes: 1,
      privacy_level: 'FOLLOWER_OF_CREATOR',
      mode: 'direct',
    },
  ]);
});
