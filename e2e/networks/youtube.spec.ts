import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent } from '../support/compose';
import { e2eSql } from '../support/db';
import { connectThroughSandboxOAuth } from '../support/oauth';

// The ffmpeg that ships in the npm package (lib/media/video.ts uses the same).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-e2e-youtube-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real 3 s H.264/AAC MP4. */
function clip(): string {
  const file = path.join(dir, 'launch.mp4');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}

test('an admin connects YouTube through Google-style consent; a video goes out once, through one upload session', async ({
  page,
}) => {
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'YouTube', path: 'youtube' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected @sandbox_\w{4} on YouTube\.$/);
  const handle = /Connected (@\S+) on YouTube\./.exec((await status.textContent()) ?? '')![1]!;
  const [account] = await e2eSql()<{ sandbox: boolean; base_url: string; token_status: string; id: string }[]>`
    select id, sandbox, base_url, token_status from social_accounts where provider = 'youtube' and handle = ${handle}`;
  expect(account).toMatchObject({ sandbox: true, base_url: '/api/sandbox/youtube', token_status: 'ok' });
  // The Accounts page says what YouTube's quota allows.
  await expect(page.getByText(/10,000 units a day per Google Cloud project/).first()).toBeVisible();

  const marker = randomUUID();
  const text = `Launch video on YouTube ${marker}\nEverything about the launch.`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(text);
  await page.getByLabel('Add a video').setInputFiles(clip());
  await expect(page.getByRole('list', { name: 'Images of this post' }).getByText('Video 1 uploaded')).toBeVisible({
    timeout: 60_000,
  });
  // The preview shows the title YouTube will get: the first line.
  await page.getByRole('tab', { name: new RegExp(`^${handle}`) }).click();
  await expect(page.getByRole('figure', { name: `Preview on YouTube for ${handle}` })).toContainText(
    text.split('\n')[0]!,
  );
  // Back to All: its text field is the one the form sends.
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expectDeliverySent(page, handle);

  // The platform's own records: one session that received every byte, one video, the post's text as its description.
  const rows = await e2eSql()<{ status: string; attempts: number; session: string | null; external_id: string }[]>`
    select d.status, d.external_id, d.provider_state->>'sessionUri' as session,
      (select count(*)::int from attempts x where x.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text like ${`%${marker}%`}`;
  expect(rows).toEqual([
    expect.objectContaining({ status: 'sent', attempts: 1, session: expect.stringContaining('upload_id=') }),
  ]);
  const sessions = await e2eSql()<{ uploaded: boolean; post_id: string | null; title: string }[]>`
    select u.uploaded_bytes = u.declared_bytes as uploaded, u.post_id::text, u.title
    from sandbox.youtube_uploads u join sandbox.accounts a on a.id = u.account_id
    where a.platform = 'youtube' and u.description like ${`%${marker}%`}`;
  expect(sessions).toEqual([{ uploaded: true, post_id: rows[0]!.external_id, title: text.split('\n')[0] }]);
});
