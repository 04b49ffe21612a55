import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// The ffmpeg that ships in the npm package (lib/media/video.ts uses the same).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-e2e-video-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real 30 s H.264/AAC MP4 of about 15 MB (noise keeps the encoder from shrinking it): three 5 MB chunks and a bit. */
function thirtySecondVideo(): string {
  const file = path.join(dir, 'clip.mp4');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30,noise=alls=40:allf=t+u'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '30', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-b:v', '4M', '-maxrate', '4M', '-bufsize', '4M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}

test('a video from the composer survives a dropped connection: it resumes at the server’s offset and is stored once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const file = thirtySecondVideo();
  const bytes = readFileSync(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await signIn(page, 'manager@demo.test');
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: /Demo Support/ }).check();

  // The second PATCH's connection drops; the third waits until the progress bar has been seen mid-way.
  const sent: string[] = [];
  let patches = 0;
  let seen!: () => void;
  const progressSeen = new Promise<void>((resolve) => (seen = resolve));
  await page.route('**/api/v1/uploads/*', async (route) => {
    const request = route.request();
    sent.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`);
    if (request.method() !== 'PATCH') return route.continue();
    patches += 1;
    if (patches === 2) return route.abort('connectionreset');
    if (patches === 3) await progressSeen;
    return route.continue();
  });

  await page.getByLabel('Add a video').setInputFiles(file);
  const progress = page.getByRole('progressbar', { name: 'Uploading clip.mp4' });
  await expect(progress).toBeVisible();
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
  await expect(page.getByText(/^\d+%/)).toBeVisible();
  seen();

  const media = page.getByRole('list', { name: 'Images of this post' });
  await expect(media.getByText('Video 1 uploaded')).toBeVisible({ timeout: 60_000 });
  await expect(media.getByText(/MP4 · 0:30 · 640×360/)).toBeVisible();
  await expect(media.getByRole('img', { name: 'Cover of video 1' })).toBeVisible();
  // X has no video formats (yet): the composer says so before scheduling.
  await expect(page.getByText('Video 1: X takes no video (@demo_support).')).toBeVisible();

  // After the dropped PATCH: a HEAD for the offset, then the same chunk again from where the server stood (5 MiB).
  const chunk = String(5 * 1024 * 1024);
  expect(sent.slice(0, 4)).toEqual(['PATCH 0', `PATCH ${chunk}`, 'HEAD ', `PATCH ${chunk}`]);

  // One media row for these bytes, its probe on it, one stored file, and no temporary upload left.
  const rows = await e2eSql()<{ id: string; duration_ms: number; size: string }[]>`
    select id, duration_ms, size from media where sha256 = ${sha256}`;
  expect(rows).toHaveLength(1);
  expect(rows[0]!.duration_ms).toBeGreaterThanOrEqual(29_900);
  expect(Number(rows[0]!.size)).toBe(bytes.length);
  expect(existsSync(path.join('.data/media', sha256.slice(0, 2), sha256.slice(2, 4), sha256))).toBe(true);
  const [upload] = await e2eSql()<{ id: string; status: string }[]>`
    select id, status from media_uploads where media_id = ${rows[0]!.id}`;
  expect(upload!.status).toBe('finished');
  const uploads = path.join(process.env.E2E_DATA_DIR ?? '.data/e2e', 'uploads');
  expect(readdirSync(uploads)).not.toContain(upload!.id);
});
