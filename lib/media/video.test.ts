import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractCoverFrame, ffmpegPath, probeVideo } from './video';

// Real files, made here by the ffmpeg that ships in the npm package, probed by the packaged ffprobe.
const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-video-'));
const file = (name: string) => path.join(dir, name);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ffmpeg = (...args: string[]) => run(ffmpegPath(), ['-v', 'error', '-y', ...args], { timeout: 60_000 });
const source = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'];

beforeAll(async () => {
  await ffmpeg(
    ...source,
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file('clip.mp4'),
  );
  await ffmpeg('-i', file('clip.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file('portrait.mov'));
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=25',
    '-t',
    '1',
    '-c:v',
    'libx264',
    '-an',
    file('silent.mp4'),
  );
  await ffmpeg(...source, '-t', '1', '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', file('mpeg4.mp4'));
  await ffmpeg(
    ...source,
    '-t',
    '1',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'libmp3lame',
    '-shortest',
    file('mp3.mp4'),
  ).catch(() =>
    ffmpeg(...source, '-t', '1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'mp2', '-shortest', file('mp3.mp4')),
  );
  await ffmpeg(...source, '-t', '1', '-c:v', 'libvpx-vp9', '-c:a', 'libopus', '-shortest', file('clip.webm')).catch(
    () => ffmpeg(...source, '-t', '1', '-c:v', 'libvpx', '-c:a', 'libvorbis', '-shortest', file('clip.webm')),
  );
  writeFileSync(file('notes.mp4'), 'not a video at all, whatever the name says');
}, 120_000);

describe('probing a video (the packaged ffprobe)', () => {
  it('an H.264/AAC MP4: duration, size, codecs, frame rate, no rotation', async () => {
    const probe = await probeVideo(file('clip.mp4'));
    expect(probe).toMatchObject({
      ok: true,
      facts: {
        container: 'mp4',
        width: 320,
        height: 240,
        rotation: 0,
        videoCodec: 'h264',
        audioCodec: 'aac',
        frameRate: 30,
      },
    });
    if (!probe.ok) return;
    expect(probe.facts.durationMs).toBeGreaterThanOrEqual(1_900);
    expect(probe.facts.durationMs).toBeLessThanOrEqual(2_200);
    expect(probe.facts.sizeBytes).toBeGreaterThan(1_000);
  });

  it('a phone video stored landscape with a quarter turn: displayed size is portrait', async () => {
    const probe = await probeVideo(file('portrait.mov'));
    expect(probe.ok && probe.facts).toMatchObject({ container: 'mov', width: 240, height: 320 });
    // A quarter turn either way (this packaged ffmpeg's muxer and ffprobe disagree on the sign of its old `rotate`
    // tag); what the networks' limits need is the displayed size above, and the upright cover below.
    expect([90, 270]).toContain(probe.ok && probe.facts.rotation);
  });

  it('no audio track is fine (audioCodec null)', async () => {
    expect(await probeVideo(file('silent.mp4'))).toMatchObject({
      ok: true,
      facts: { audioCodec: null, width: 160, height: 120, frameRate: 25 },
    });
  });

  it('refuses what networks do not take, saying why', async () => {
    expect(await probeVideo(file('mpeg4.mp4'))).toEqual({
      ok: false,
      message: 'The video is encoded as mpeg4; networks take H.264 or HEVC.',
    });
    expect(await probeVideo(file('mp3.mp4'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/; networks take AAC\.$/),
    });
    expect(await probeVideo(file('clip.webm'))).toEqual({
      ok: false,
      message: 'Upload an MP4 or MOV file (this one is not).',
    });
    expect(await probeVideo(file('notes.mp4'))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a video/),
    });
    expect(await probeVideo(file('missing.mp4'))).toMatchObject({ ok: false });
  });
});

describe('the cover frame (the packaged ffmpeg)', () => {
  it('is a JPEG of the picture at the asked time, upright for a turned video, the first frame past the end', async () => {
    const cover = await extractCoverFrame(file('clip.mp4'), 1_000);
    expect(await sharp(cover).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    const upright = await sharp(await extractCoverFrame(file('portrait.mov'))).metadata();
    expect([upright.width, upright.height]).toEqual([240, 320]);
    expect((await sharp(await extractCoverFrame(file('clip.mp4'), 60_000)).metadata()).format).toBe('jpeg');
  });
});
