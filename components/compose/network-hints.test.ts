import { describe, expect, it } from 'vitest';
import type { DraftMedia } from './draft-parts';
import { networkHints } from './network-hints';

// The composer's hints before scheduling, for the format each account publishes in and for a thread's later parts
// (the server checks the same in lib/posts/media.ts; app/api/v1/posts/formats.test.ts holds it to that).

const instagram = { id: 'ig-1', handle: '@brand', provider: 'instagram' as const };
const x = { id: 'x-1', handle: '@brand_x', provider: 'x' as const };
const image: DraftMedia = { id: 'i', type: 'image/jpeg', width: 1080, height: 1080, size: 200_000, altText: 'alt' };
/** A 90-second vertical H.264 video: a fine Reel, too long for a Story (60 s). */
const video: DraftMedia = {
  id: 'v',
  type: 'video/mp4',
  width: 1080,
  height: 1920,
  size: 20_000_000,
  altText: '',
  video: { container: 'mp4', durationMs: 90_000, videoCodec: 'h264', audioCodec: 'aac', frameRate: 30, rotation: 0 },
};

describe('composer hints: what each account will refuse, before scheduling', () => {
  it('a video is checked against the chosen format: a Reel passes, the same video as a Story is too long', () => {
    expect(networkHints([video], [instagram], 'post', { reply: false })).toEqual([]);
    const story = networkHints([video], [instagram], 'post', { formats: { 'ig-1': 'story' }, reply: false });
    expect(story).toHaveLength(1);
    expect(story[0]).toMatch(/Video 1: .*Story.*@brand/);
  });

  it("a thread's later part on Instagram is a comment: media there is named, and no image is required", () => {
    expect(networkHints([], [instagram], 'part', { reply: true })).toEqual([]);
    expect(networkHints([image], [instagram], 'part', { reply: true })).toEqual([
      '@brand (Instagram) publishes this part as a comment, which takes no image or video.',
    ]);
    // A network whose replies are posts takes the image on a later part as on the first.
    expect(networkHints([image], [x], 'part', { reply: true })).toEqual([]);
    // The post itself still needs its file on Instagram.
    expect(networkHints([], [instagram], 'part', { reply: false })).toEqual([
      '@brand (Instagram) publishes only posts with an image or a video.',
    ]);
  });
});
