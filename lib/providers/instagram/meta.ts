import type { ProviderMeta, VideoFormat } from '../definition';
import { instagramTextLength } from './text-length';

const SECOND = 1_000;
const MB = 1024 * 1024;
/** What every Instagram video takes (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#video-specifications). */
const VIDEO = {
  types: ['video/mp4', 'video/quicktime'],
  videoCodecs: ['h264', 'hevc'],
  audioCodecs: ['aac'],
  minFrameRate: 23,
  maxFrameRate: 60,
  maxLongSide: 1920,
} as const;

/** Reels (a single video is always published as one), Stories, and a carousel's videos. */
export const INSTAGRAM_VIDEO_FORMATS = [
  {
    id: 'reel',
    label: 'Reel',
    ...VIDEO,
    maxBytes: 300 * MB,
    minDurationMs: 3 * SECOND,
    maxDurationMs: 15 * 60 * SECOND,
    minAspectRatio: 0.01,
    maxAspectRatio: 10,
  },
  {
    id: 'story',
    label: 'Story',
    ...VIDEO,
    maxBytes: 100 * MB,
    minDurationMs: 3 * SECOND,
    maxDurationMs: 60 * SECOND,
    minAspectRatio: 0.1,
    maxAspectRatio: 10,
  },
  {
    id: 'carousel',
    label: 'Carousel video',
    ...VIDEO,
    maxBytes: 100 * MB,
    minDurationMs: 3 * SECOND,
    maxDurationMs: 60 * SECOND,
    minAspectRatio: 4 / 5,
    maxAspectRatio: 1.91,
  },
] as const satisfies readonly VideoFormat[];

export const instagramMeta = {
  name: 'instagram',
  label: 'Instagram',
  exactlyOnce:
    'A delivery creates one media container, kept across attempts, and publishes it; an unknown outcome is settled by the container’s status (PUBLISHED means it went out), and an expired container is replaced only once the account’s posts show no copy. A first comment goes after its post is confirmed; an unknown one is settled by reading that post’s comments.',
  textLimit: 2_200,
  countText: instagramTextLength,
  // JPEG is the only image format Instagram publishes; a carousel holds up to 10 images and videos.
  media: {
    maxPerPost: 10,
    maxBytes: 8 * MB,
    types: ['image/jpeg', 'video/mp4', 'video/quicktime'],
    video: { formats: INSTAGRAM_VIDEO_FORMATS },
    required: true,
  },
  formats: [
    {
      id: 'story',
      label: 'Story',
      help: 'One image or one video, shown for 24 hours, without the caption.',
    },
  ],
  // A reply is a comment of the account's own on a media object: a thread to Instagram is a post and its first
  // comment, and only that (a link names a post by its shortcode, which the comments edge does not take). A comment
  // follows the caption's rules (2,200 characters, 30 hashtags); the Graph reference names no others. (The 300
  // characters, 4 hashtags and one URL of 2014 were the retired Instagram API's.)
  kinds: ['post', 'reply'],
  replies: { noun: 'comment', textLimit: 2_200, maxHashtags: 30, media: false, maxThreadParts: 2, threadOnly: true },
  connect: { method: 'oauth', oauth: true, fields: [] },
  sandboxPath: '/api/sandbox/instagram',
  sandboxPostPath: (id) => `/api/sandbox/instagram/v23.0/${id}?fields=id,caption,media_type,timestamp,permalink`,
} as const satisfies ProviderMeta;
