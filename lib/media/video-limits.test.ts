import { describe, expect, it } from 'vitest';
import type { VideoFormat } from '@/lib/providers/definition';
import { clockDuration, networkVideoCheck, videoFactsOf, videoProblems, type VideoCheckFacts } from './video-limits';

const reels: VideoFormat = {
  id: 'reel',
  label: 'Reels',
  types: ['video/mp4', 'video/quicktime'],
  videoCodecs: ['h264', 'hevc'],
  audioCodecs: ['aac'],
  maxBytes: 300_000_000,
  minDurationMs: 3_000,
  maxDurationMs: 15 * 60_000,
  minAspectRatio: 9 / 16,
  maxAspectRatio: 9 / 16,
  minFrameRate: 23,
  maxFrameRate: 60,
  maxLongSide: 1920,
  minShortSide: 540,
};
const portrait: VideoCheckFacts = {
  container: 'mp4',
  durationMs: 30_000,
  width: 1080,
  height: 1920,
  videoCodec: 'h264',
  audioCodec: 'aac',
  frameRate: 30,
  sizeBytes: 20_000_000,
};

describe('videoProblems', () => {
  it('a video within every limit has none', () => {
    expect(videoProblems(portrait, reels)).toEqual([]);
    expect(videoProblems({ ...portrait, audioCodec: null }, reels)).toEqual([]); // no sound is always fine
  });

  it('says each limit broken, with this video’s figure beside it', () => {
    expect(videoProblems({ ...portrait, durationMs: 962_000 }, reels)).toEqual([
      'Reels: at most 15 minutes (this video is 16:02)',
    ]);
    expect(videoProblems({ ...portrait, durationMs: 2_000 }, reels)).toEqual([
      'Reels: at least 3 seconds (this video is 0:02)',
    ]);
    expect(videoProblems({ ...portrait, width: 1920, height: 1080 }, reels)).toEqual([
      'Reels: 9:16 only (this video is 1920×1080, 16:9)',
    ]);
    expect(videoProblems({ ...portrait, sizeBytes: 1_200_000_000 }, reels)).toEqual([
      'Reels: at most 300 MB (this video is 1.2 GB)',
    ]);
    expect(videoProblems({ ...portrait, frameRate: 120 }, reels)).toEqual([
      'Reels: at most 60 frames per second (this video has 120)',
    ]);
    expect(videoProblems({ ...portrait, frameRate: 15 }, reels)).toEqual([
      'Reels: at least 23 frames per second (this video has 15)',
    ]);
    expect(videoProblems({ ...portrait, width: 2160, height: 3840 }, reels)).toEqual([
      'Reels: at most 1920 pixels on the longer side (this video is 2160×3840)',
    ]);
    expect(videoProblems({ ...portrait, width: 360, height: 640 }, reels)).toEqual([
      'Reels: at least 540 pixels on the shorter side (this video is 360×640)',
    ]);
  });

  it('names containers and codecs as people know them', () => {
    const strict = { ...reels, types: ['video/mp4'], videoCodecs: ['h264'] };
    expect(videoProblems({ ...portrait, container: 'mov', videoCodec: 'hevc' }, strict)).toEqual([
      'Reels: MP4 files only (this video is MOV)',
      'Reels: H.264 video only (this one is HEVC)',
    ]);
    expect(videoProblems(portrait, { ...reels, audioCodecs: [] })).toEqual([
      'Reels: no sound (this video has a sound track)',
    ]);
  });

  it('a range of aspect ratios is said as a range', () => {
    const feed = { ...reels, label: 'Feed video', minAspectRatio: 4 / 5, maxAspectRatio: 1.91 };
    expect(videoProblems({ ...portrait }, feed)).toEqual([
      'Feed video: an aspect ratio from 4:5 to 1.91:1 (this video is 1080×1920, 9:16)',
    ]);
  });
});

describe('networkVideoCheck', () => {
  const instagram = {
    label: 'Instagram',
    media: { maxPerPost: 10, maxBytes: 8e6, types: [], video: { formats: [reels] } },
  };
  it('prefixes each problem with the network, on the chosen format or the first', () => {
    expect(networkVideoCheck(instagram, { ...portrait, durationMs: 962_000 })).toEqual({
      supported: true,
      format: reels,
      problems: ['Instagram Reels: at most 15 minutes (this video is 16:02)'],
    });
    expect(networkVideoCheck(instagram, portrait, 'no-such-format')).toMatchObject({ supported: true, problems: [] });
  });

  it('a network without video says so', () => {
    expect(
      networkVideoCheck({ label: 'Bluesky', media: { maxPerPost: 4, maxBytes: 1e6, types: [] } }, portrait),
    ).toEqual({ supported: false, message: 'Bluesky takes no video' });
  });
});

it('reads the facts from a serialized media, null for an image', () => {
  const video = {
    durationMs: 30_000,
    container: 'mov',
    videoCodec: 'hevc',
    audioCodec: null,
    frameRate: 30,
    rotation: 90,
  };
  expect(videoFactsOf({ size: 5, width: 1080, height: 1920, video })).toEqual({
    container: 'mov',
    durationMs: 30_000,
    width: 1080,
    height: 1920,
    videoCodec: 'hevc',
    audioCodec: null,
    frameRate: 30,
    sizeBytes: 5,
  });
  expect(videoFactsOf({ size: 5, width: 1, height: 1 })).toBeNull();
  expect(clockDuration(3_723_000)).toBe('1:02:03');
});
